#include "importer/stream_facts.hpp"

#include <utility>

#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;
using reconcile::member;

StreamFacts::StreamFacts(std::string framework, std::string label)
    : framework_(std::move(framework)), label_(std::move(label)) {}

void StreamFacts::observe(std::size_t index, const ordered_json& sidecar) {
  const std::size_t line = index + 1;
  ++records_;
  // The record's own checks (the sidecar schema) guarantee source_framework's name and version.
  // (at() all the same: a const tree's operator[] on a missing key is undefined behaviour).
  const ordered_json& sf = sidecar.at("source_framework");
  const std::string name = sf.at("name").get<std::string>();
  const std::string version = sf.at("version").get<std::string>();
  if (index == 0) {
    first_name_ = name;
    first_version_ = version;
  } else if (!framework_mismatch_ && (name != first_name_ || version != first_version_)) {
    framework_mismatch_ = Miss{line, "got name='" + name + "' version='" + version + "'"};
  }
  if (const ordered_json* t = member(sidecar, "trace_id")) {
    ++with_trace_;
    const std::string value = t->get<std::string>();
    if (index == 0) {
      first_trace_ = value;
    } else if (first_trace_ && !trace_mismatch_ && value != *first_trace_) {
      trace_mismatch_ = Miss{line, value};
    }
  } else if (!first_without_trace_) {
    first_without_trace_ = line;
  }
  if (const ordered_json* s = member(sidecar, "step_index")) {
    ++with_step_;
    if (!step_mismatch_ && (!s->is_number() || s->get<double>() != static_cast<double>(index))) {
      step_mismatch_ = Miss{line, s->dump()};
    }
  } else if (!first_without_step_) {
    first_without_step_ = line;
  }
}

std::string StreamFacts::trace_id(const std::string& source_hash) const {
  return first_trace_ ? *first_trace_ : source_hash.substr(7, 32);
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
