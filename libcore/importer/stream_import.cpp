#include "importer/stream_import.hpp"

#include <algorithm>
#include <utility>

#include "common/find_text.hpp"
#include "importer/observer_receipt.hpp"
#include "importer/sidecar_checks.hpp"
#include "importer/witnessed_step.hpp"
#include "receipt/emit/general_line.hpp"
#include "reconcile/json_access.hpp"

namespace importer {

using nlohmann::ordered_json;

namespace {

// Same length as a real digest, so replacing it in place moves nothing.
const std::string kDigestPlaceholder = "sha256:" + std::string(64, '0');
const std::string kField = ",\"bundle_root_digest\":\"" + kDigestPlaceholder + "\"";
const std::string kKeyAndPlaceholder = kField.substr(1, kField.size() - 2);  // "bundle_root_digest":"sha256:0...

}  // namespace

StreamImport::StreamImport(const ImportOptions& options, std::optional<std::string> source_hash,
                           std::function<void(std::string_view)> write, SourcePlaceholder placeholder)
    : options_(options),
      label_(caller_label(options.framework, true)),
      placeholder_(std::move(placeholder)),
      write_(std::move(write)),
      facts_(std::string(framework_name(options.framework)), label_) {
  if (source_hash) source_hash_known(*source_hash);
}

void StreamImport::source_hash_known(const std::string& source_hash) {
  if (!source_hash_pending()) return;
  known_storage_ = std::make_unique<Known>(Known{source_hash, {}});
  if (trace_from_placeholder_) known_storage_->trace_id = facts_.trace_id(source_hash);
  // Release: a thread that sees the pointer sees what it points to.
  known_.store(known_storage_.get(), std::memory_order_release);
  for (auto& [i, step] : held_) emit_known(i, step);
  held_.clear();
  held_bytes_ = 0;
}

common::Status StreamImport::add_line(std::string_view line) { return add_line(std::string(line)); }

common::Status StreamImport::add_line(std::string&& line) {
  if (js_trim(line).empty()) return {};
  PreparedStep step = prepare(std::move(line), records_, !witness_error_);
  return fold(step);
}

bool StreamImport::checked_receipt(PreparedStep& p, std::size_t i, bool witness,
                                   std::optional<reconcile::ReadReceipt>& sidecar,
                                   std::optional<ComposedReceipt>& receipt) const {
  const std::string n = std::to_string(i + 1);
  const std::string line_label = label_ + ": sidecar line " + n;
  auto read = read_sidecar_document(
      p.line, label_, "sidecar line " + n + " is",
      {.label = line_label,
       .single_step = std::nullopt,
       .suffix = ". Multi-step ingestion requires framework-trace.v0.2.0 sidecars; if you have a "
                 "v0.1.0 single-step sidecar, use the single-step subcommand (drop 'multi' from "
                 "the CLI invocation)."});
  auto refuse = [&p](const common::Error& e) {
    p.error = e;
    return false;
  };
  if (!read) return refuse(read.error());
  // The sidecar is read in place from here on; its document holds the line's text (prepare gives
  // it back).
  const std::string version = std::move(read->version);
  const std::string topology_bytes = std::move(read->topology_bytes);
  sidecar.emplace(std::move(read->doc));
  const reconcile::Json& parsed = sidecar->root();
  if (version == "0.1.0") {
    return refuse(common::Error::malformed(
        label_ + ": sidecar line " + n +
        " declares format='framework-trace.v0.1.0' but multi-step ingestion requires "
        "'framework-trace.v0.2.0', 'framework-trace.v0.3.0', 'framework-trace.v0.4.0', "
        "'framework-trace.v0.5.0', 'framework-trace.v0.6.0', 'framework-trace.v0.7.0', or "
        "'framework-trace.v0.8.0'. Use the single-step subcommand for v0.1.0 sidecars."));
  }
  if (auto s = check_collection_caps(parsed, line_label); !s) return refuse(s.error());
  if (auto s = check_cross_references(parsed, line_label); !s) return refuse(s.error());
  p.facts = StepFacts::of(parsed, i);
  if (!witness) return false;

  auto w = detail::witness(*sidecar, options_.differential_tolerance, topology_bytes);
  if (!w) {
    p.witness_error = "record " + n + " (step_index " + std::to_string(i) +
                      ") failed during engine recompute: " + w.error().message() +
                      " HINT: this record (1-based line " + n +
                      " of the JSONL stream) is malformed; fix or remove it. Multi-step ingestion is all-or-nothing "
                      "— the whole bundle is rejected so a partial trace is never emitted.";
    return false;
  }
  ObserverFields f;
  f.framework = options_.framework;
  f.multi = true;
  // Record 0 names the bundle; the others are prepared once it is folded.
  f.fixture = (i == 0 ? p.facts.name : first_name_) + "-imported-multi-step-step-" + std::to_string(i);
  // The source hash, or its placeholder while it is not known (patched when the record is written).
  const Known* known = known_.load(std::memory_order_acquire);
  f.source_hash = known ? known->source_hash : placeholder_.source_hash();
  p.hash_pending = known == nullptr;
  if (i == 0) {
    f.trace_id = receipts_trace_id(p.facts.trace_id, f.source_hash);
    p.trace_pending = p.hash_pending && !p.facts.trace_id;
  } else {
    f.trace_id = trace_from_placeholder_ && known ? known->trace_id : trace_id_;
    p.trace_pending = p.hash_pending && trace_from_placeholder_;
  }
  f.import_timestamp = options_.import_timestamp;
  f.differential_tolerance = options_.differential_tolerance;
  f.differential_passed = w->outcome.passed;
  f.step_index = static_cast<std::int64_t>(i);
  p.witnessed = true;
  p.outcome = std::move(w->outcome);
  receipt.emplace(*sidecar, w->engine, f);
  return true;
}

PreparedStep StreamImport::prepare(std::string&& line, std::size_t index, bool witness) const {
  PreparedStep p;
  p.line = std::move(line);
  std::optional<reconcile::ReadReceipt> sidecar;
  {
    std::optional<ComposedReceipt> receipt;
    if (checked_receipt(p, index, witness, sidecar, receipt)) emit_prepared(p, *receipt);
  }
  if (sidecar) p.line = sidecar->take_text();  // the line's text, held by the sidecar's document
  return p;
}

void StreamImport::emit_prepared(PreparedStep& p, ComposedReceipt& receipt) const {
  receipt.own()["attestor"]["bundle_root_digest"] = kDigestPlaceholder;
  auto emitted = receipt::emit::emit_general_receipt_line(receipt.root());
  if (!emitted) {
    p.emit_error = emitted.error();
    p.unwritable = detail::unwritable_number_path(reconcile::to_tree(receipt.root()), "");
    return;
  }
  // The line without the field: its one occurrence cut out (a key's quotes are never escaped, a
  // string's always are), or, should it not occur exactly once, the receipt emitted again without
  // it. Only the field's placeholders get the digest, not a sidecar's string that spells it.
  p.text = std::move(*emitted);
  const std::string_view text(p.text);
  const auto at = common::find_text(text, kField);
  if (at != std::string_view::npos && common::find_text(text, kField, at + 1) == std::string_view::npos) {
    p.field_at = at;
    p.placeholders.push_back(at + kField.size() - kDigestPlaceholder.size() - 1);
    return;
  }
  for (auto k = common::find_text(text, kKeyAndPlaceholder); k != std::string_view::npos;
       k = common::find_text(text, kKeyAndPlaceholder, k + 1)) {
    p.placeholders.push_back(k + kKeyAndPlaceholder.size() - kDigestPlaceholder.size());
  }
  receipt.own()["attestor"].erase("bundle_root_digest");
  auto plain = receipt::emit::emit_general_receipt_line(receipt.root());
  if (!plain) {
    p.emit_error = plain.error();
    p.plain_failed = true;
    return;
  }
  p.plain = std::move(*plain);
}

common::Status StreamImport::fold(PreparedStep& step) {
  const std::size_t i = records_++;
  if (step.error) return *step.error;
  facts_.observe(i, step.facts);
  if (i == 0) {
    first_name_ = facts_.framework_name();
    const Known* known = known_.load(std::memory_order_acquire);
    trace_id_ = facts_.trace_id(known ? known->source_hash : placeholder_.source_hash());
    trace_from_placeholder_ = known == nullptr && !step.facts.trace_id;
  }
  if (witness_error_) return {};
  if (step.witness_error) {
    witness_error_ = std::move(step.witness_error);
    return {};
  }
  if (!step.witnessed) return {};  // prepared without the witness, which an earlier failure made moot
  outcome_.steps.push_back(std::move(step.outcome));
  if (source_hash_pending()) {
    held_bytes_ += step.line.size() + step.text.size() + step.plain.size();
    held_.emplace_back(i, std::move(step));
  } else {
    emit_known(i, step);
  }
  return {};
}

void StreamImport::emit_known(std::size_t i, PreparedStep& step) {
  if (step.hash_pending) {
    const std::string& hash = known_.load(std::memory_order_acquire)->source_hash;
    const bool patched = placeholder_.patch(step.text, hash, step.trace_pending) &&
                         (step.plain.empty() || placeholder_.patch(step.plain, hash, step.trace_pending));
    if (!patched && !step.emit_error) {
      // A sidecar spelling the placeholder (or a receipt that could not be patched whole): this
      // record again, with the hash.
      ++prepared_again_;
      PreparedStep again = prepare(std::move(step.line), i);
      emit(i, again);
      return;
    }
  }
  emit(i, step);
}

void StreamImport::emit(std::size_t i, PreparedStep& step) {
  if (emit_error_) {  // only the field of the failure's message is still wanted: the receipt again
    if (name_field_ && !unwritable_at_) {
      PreparedStep again;
      again.line = step.line;
      std::optional<reconcile::ReadReceipt> sidecar;
      std::optional<ComposedReceipt> receipt;
      if (checked_receipt(again, i, true, sidecar, receipt)) {
        unwritable_at_ = detail::unwritable_number_path(reconcile::to_tree(receipt->root()), "");
      }
    }
    return;
  }
  if (step.emit_error) {
    emit_error_ = common::Error(step.emit_error->code(), "record " + std::to_string(i + 1) + ": " + step.emit_error->message(),
                                step.emit_error->where());
    if (step.plain_failed) {
      name_field_ = false;
    } else {
      unwritable_at_ = step.unwritable;
    }
    return;
  }
  const std::string_view text(step.text);
  for (const std::size_t at : step.placeholders) outcome_.digest_at.push_back(written_ + at);
  if (step.field_at != std::string::npos) {
    unbound_hash_.update(text.substr(0, step.field_at));
    unbound_hash_.update(text.substr(step.field_at + kField.size()));
  } else {
    unbound_hash_.update(step.plain);
  }
  write_(text);
  written_ += text.size();
}

common::Result<StreamOutcome> StreamImport::finish() {
  const auto fail = [&](const std::string& message) { return common::Error::malformed(label_ + ": " + message); };
  if (source_hash_pending()) return fail("internal: the receipts were finished before the stream's hash was known");
  if (records_ == 0) {
    return fail("sidecar JSONL stream contains zero records. Multi-step ingestion requires ≥1 record (one JSON "
                "object per line, in step order).");
  }
  if (auto broken = facts_.first_error()) return fail(*broken);
  if (witness_error_) return fail(*witness_error_);
  if (emit_error_) {
    return fail(name_field_ && unwritable_at_ ? emit_error_->message() + " (receipt field " + *unwritable_at_ + ")"
                                              : emit_error_->message());
  }
  outcome_.bundle_root_digest = "sha256:" + common::to_hex(unbound_hash_.finish());
  return std::move(outcome_);
}

void patch_digests(const StreamOutcome& outcome, std::uint64_t chunk_at, std::span<char> chunk) {
  const std::string& digest = outcome.bundle_root_digest;
  const std::uint64_t chunk_end = chunk_at + chunk.size();
  // The first placeholder that ends after the chunk's start.
  auto it = std::upper_bound(outcome.digest_at.begin(), outcome.digest_at.end(), chunk_at,
                             [&](std::uint64_t at, std::uint64_t p) { return at < p + digest.size(); });
  for (; it != outcome.digest_at.end() && *it < chunk_end; ++it) {
    const std::uint64_t from = std::max(*it, chunk_at);
    const std::uint64_t to = std::min<std::uint64_t>(*it + digest.size(), chunk_end);
    std::copy(digest.begin() + static_cast<std::ptrdiff_t>(from - *it),
              digest.begin() + static_cast<std::ptrdiff_t>(to - *it), chunk.begin() + static_cast<std::ptrdiff_t>(from - chunk_at));
  }
}

}  // namespace importer
