#include "importer/stream_facts.hpp"

#include <utility>

#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;

StreamFacts::StreamFacts(std::string framework, std::string label)
    : framework_(std::move(framework)), label_(std::move(label)) {}

namespace {

// A string member's text (the sidecar schema makes these strings).
std::string facts_text(const ordered_json& s) { return s.get<std::string>(); }
std::string facts_text(const reconcile::Json& s) { return s.is_string() ? std::string(s.string()) : s.dump(); }

template <class V>
StepFacts facts_of(const V& sidecar, std::size_t index) {
  StepFacts f;
  // The sidecar schema guarantees source_framework with a string name and version (a tree
  // without them throws, as at() did; a document's reads them as null).
  static const V kNull;
  const auto at = [](const V* v) -> const V& { return v ? *v : kNull; };
  const V& sf = at(member(sidecar, "source_framework"));
  f.name = facts_text(at(member(sf, "name")));
  f.version = facts_text(at(member(sf, "version")));
  if (const V* t = member(sidecar, "trace_id")) f.trace_id = facts_text(*t);
  if (const V* s = member(sidecar, "step_index")) {
    f.has_step = true;
    f.step_in_place = s->is_number() && s->template get<double>() == static_cast<double>(index);
    if (!f.step_in_place) f.step_text = s->dump();
  }
  return f;
}

}  // namespace

StepFacts StepFacts::of(const ordered_json& sidecar, std::size_t index) { return facts_of(sidecar, index); }
StepFacts StepFacts::of(const reconcile::Json& sidecar, std::size_t index) { return facts_of(sidecar, index); }

std::string receipts_trace_id(const std::optional<std::string>& first_trace, const std::string& source_hash) {
  return first_trace ? *first_trace : source_hash.substr(7, 32);
}

void StreamFacts::observe(std::size_t index, const StepFacts& f) {
  const std::size_t line = index + 1;
  ++records_;
  if (index == 0) {
    first_name_ = f.name;
    first_version_ = f.version;
  } else if (!framework_mismatch_ && (f.name != first_name_ || f.version != first_version_)) {
    framework_mismatch_ = Miss{line, "got name='" + f.name + "' version='" + f.version + "'"};
  }
  if (f.trace_id) {
    ++with_trace_;
    if (index == 0) {
      first_trace_ = f.trace_id;
    } else if (first_trace_ && !trace_mismatch_ && *f.trace_id != *first_trace_) {
      trace_mismatch_ = Miss{line, *f.trace_id};
    }
  } else if (!first_without_trace_) {
    first_without_trace_ = line;
  }
  if (f.has_step) {
    ++with_step_;
    if (!step_mismatch_ && !f.step_in_place) step_mismatch_ = Miss{line, f.step_text};
  } else if (!first_without_step_) {
    first_without_step_ = line;
  }
}

std::string StreamFacts::trace_id(const std::string& source_hash) const {
  return receipts_trace_id(first_trace_, source_hash);
}

std::optional<std::string> StreamFacts::first_error() const {
  if (first_name_ != framework_) {
    return "sidecar line 1 declares source_framework.name='" + first_name_ + "', but " + label_ +
           " accepts only '" + framework_ + "'. Use the matching importer for this framework.";
  }
  if (framework_mismatch_) {
    return "framework mismatch at sidecar line " + std::to_string(framework_mismatch_->line) +
           ". Expected source_framework.name='" + first_name_ + "' version='" + first_version_ +
           "' (from line 1); " + framework_mismatch_->detail +
           ". A multi-step bundle must be a single training trace from one framework version. If you have "
           "mixed-framework sidecars, split them and import each framework separately.";
  }
  if (with_trace_ != 0 && with_trace_ != records_) {
    return "trace_id co-presence violated. Some records declare trace_id and others do not. First record "
           "missing trace_id: line " + std::to_string(*first_without_trace_) +
           ". Either declare trace_id on all records or none.";
  }
  if (trace_mismatch_) {
    return "trace_id mismatch at line " + std::to_string(trace_mismatch_->line) + ". Expected '" + *first_trace_ +
           "' (from line 1); got '" + trace_mismatch_->detail +
           "'. A multi-step bundle must share trace_id across all records.";
  }
  if (with_step_ != 0 && with_step_ != records_) {
    return "step_index co-presence violated. Some records declare step_index and others do not. First record "
           "missing step_index: line " + std::to_string(*first_without_step_) +
           ". Either declare step_index on all records or none.";
  }
  if (step_mismatch_ && with_step_ == records_) {
    return "step_index sequence violated at line " + std::to_string(step_mismatch_->line) +
           ". Expected step_index=" + std::to_string(step_mismatch_->line - 1) +
           " (dense monotonic from 0); got step_index=" + step_mismatch_->detail +
           ". Rule 10 enforces dense + monotonic step_index across a trace.";
  }
  return std::nullopt;
}

}  // namespace importer
