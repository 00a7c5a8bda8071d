#include "fuzz_targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/json_document_reader.hpp"
#include "common/json_fast_reader.hpp"
#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"

namespace fuzz {
namespace {

[[noreturn]] void broken(const char* invariant, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

void expect(bool ok, const char* invariant, const std::string& detail = {}) {
  if (!ok) broken(invariant, detail);
}

// Errors are for people and logs: one line, never empty.
void check_error(const common::Error& e) {
  const std::string text = e.to_string();
  expect(!e.message().empty(), "error has a message");
  expect(text.find('\n') == std::string::npos, "error is one line", text);
}

Depth refused(const common::Error& e, Depth depth) {
  check_error(e);
  return depth;
}

// Small limits keep one input cheap: the suite's real limits are tested elsewhere.
common::JsonInputOptions options() {
  common::JsonInputOptions o;
  o.file = "fuzz.json";
  o.max_bytes = 1 << 20;
  o.bom = common::BomPolicy::strip;
  return o;
}

std::vector<nlohmann::ordered_json> parse_receipt_lines(const std::string& text) {
  auto records = common::parse_jsonl_text(text, options());
  expect(records.ok(), "emitted receipts parse back", records.ok() ? "" : records.error().to_string());
  std::vector<nlohmann::ordered_json> out;
  for (auto& r : *records) out.push_back(std::move(r.value));
  return out;
}

}  // namespace

Depth json_target(std::string_view data) {
  // The reader's fast path (json_fast_reader.hpp) accepts only what nlohmann's own strict parser
  // accepts, into the same DOM: the same text, number kinds included, when dumped.
  if (auto fast = common::fast_read_json(data, common::kMaxJsonNestingDepth)) {
    nlohmann::ordered_json checked;
    try {
      checked = nlohmann::ordered_json::parse(data);
    } catch (const nlohmann::ordered_json::exception& e) {
      broken("the fast path accepts only valid JSON", e.what());
    }
    expect(fast->dump() == checked.dump(), "the fast path reads the same DOM", checked.dump().substr(0, 200));
  }
  auto doc = common::parse_json_text(data, options());
  auto lines = common::parse_jsonl_text(data, options());
  if (!lines) check_error(lines.error());
  if (!doc) {
    check_error(doc.error());
    return lines ? Depth::later_refused : Depth::parse_refused;
  } else {
    const std::string again = doc->dump();
    auto reparsed = common::parse_json_text(again, options());
    expect(reparsed.ok(), "accepted JSON re-parses", reparsed.ok() ? "" : reparsed.error().to_string());
    expect(*reparsed == *doc, "accepted JSON re-parses to the same value", again.substr(0, 200));
  }
  return Depth::accepted;
}

Depth json_document_target(std::string_view data) {
  // The arena reader (json_document_reader.hpp) against the tree reader, under both BOM policies:
  // the same verdict, the same error line, and the same value (number kinds included, dumped).
  Depth depth = Depth::parse_refused;
  for (const auto bom : {common::BomPolicy::reject, common::BomPolicy::strip}) {
    common::JsonInputOptions o = options();
    o.bom = bom;
    const auto tree = common::parse_json_text(data, o);
    const auto doc = common::parse_json_document(std::string(data), o);
    if (doc.ok() != tree.ok()) {
      broken("the document reader accepts what the tree reader accepts",
             tree.ok() ? doc.error().to_string() : tree.error().to_string());
    }
    if (!tree) {
      check_error(tree.error());
      expect(doc.error().to_string() == tree.error().to_string(), "both readers refuse with the same line",
             doc.error().to_string() + " | " + tree.error().to_string());
      continue;
    }
    expect(common::to_ordered_json(doc->root()).dump() == tree->dump(), "both readers read the same value",
           tree->dump().substr(0, 200));
    depth = Depth::accepted;
  }
  return depth;
}

Depth topology_target(std::string_view data) {
  auto doc = common::parse_json_text(data, options());
  if (!doc) return refused(doc.error(), Depth::parse_refused);
  auto input = receipt::topology::parse_topology_input(nlohmann::json(*doc), "fuzz.json");
  if (!input) return refused(input.error(), Depth::later_refused);
  // Keep one step cheap under sanitizers.
  if (input->topology.parameter_order.size() > 4096) return Depth::later_refused;
  auto receipts = receipt::engine::generate_from_config(*input);
  if (!receipts) return refused(receipts.error(), Depth::later_refused);
  auto typed = receipt::emit::emit_receipts(*receipts);
  std::vector<nlohmann::ordered_json> documents;
  for (const auto& r : *receipts) documents.push_back(receipt::engine::to_json(r));
  auto document = receipt::emit::emit_receipts(documents);
  expect(typed.ok() == document.ok(), "typed and document emission agree on success");
  if (!typed) {
    check_error(typed.error());
    expect(typed.error().to_string() == document.error().to_string(), "typed and document emission fail alike",
           typed.error().to_string() + " | " + document.error().to_string());
    return Depth::later_refused;
  }
  expect(*typed == *document, "typed and document emission give the same bytes");
  const auto emitted = parse_receipt_lines(*typed);
  for (const auto& r : emitted) {
    const auto* schema = schema_registry::find_schema(schema_registry::pick_receipt_version(r));
    expect(schema != nullptr, "engine receipts name a shipped schema version");
    const auto errors = schema_registry::validate(*schema, r);
    expect(errors.empty(), "engine receipts are schema-valid", errors.empty() ? "" : errors.front().to_string());
  }
  // Re-running from the receipt's own 9-digit values changes numbers once (the config may carry
  // more digits); after that the bytes are a fixed point.
  auto once = receipt::reproduce::reproduce(emitted);
  expect(once.ok(), "a receipt reproduces from its own bytes", once.ok() ? "" : once.error().to_string());
  auto first = receipt::emit::emit_receipts(*once);
  expect(first.ok(), "a reproduced receipt emits", first.ok() ? "" : first.error().to_string());
  auto twice = receipt::reproduce::reproduce(parse_receipt_lines(*first));
  expect(twice.ok(), "a reproduced receipt reproduces");
  auto second = receipt::emit::emit_receipts(*twice);
  expect(second.ok() && *second == *first, "reproduction reaches a fixed point");
  return Depth::accepted;
}

Depth receipts_target(std::string_view data) {
  auto records = common::parse_jsonl_text(data, options());
  if (!records) return refused(records.error(), Depth::parse_refused);
  std::vector<nlohmann::ordered_json> receipts;
  bool all_emitted = true;
  for (auto& r : *records) {
    const auto* schema = schema_registry::find_schema(schema_registry::pick_receipt_version(r.value));
    if (schema != nullptr) {
      for (const auto& e : schema_registry::validate(*schema, r.value, 3)) check_error(e);
    }
    auto line = receipt::emit::emit_receipt_line(r.value);
    if (!line) {
      check_error(line.error());
      all_emitted = false;
    } else {
      auto reparsed = parse_receipt_lines(*line);
      expect(reparsed.size() == 1, "one receipt, one line");
      auto twice = receipt::emit::emit_receipt_line(reparsed[0]);
      expect(twice.ok() && *twice == *line, "emitted bytes are a fixed point", line->substr(0, 200));
    }
    receipts.push_back(std::move(r.value));
  }
  if (receipts.size() > 64) return Depth::later_refused;
  auto again = receipt::reproduce::reproduce(receipts);
  if (!again) return refused(again.error(), Depth::later_refused);
  auto bytes = receipt::emit::emit_receipts(*again);
  if (!bytes) return refused(bytes.error(), Depth::later_refused);
  return all_emitted ? Depth::accepted : Depth::later_refused;
}

namespace {

// The verdict and what it rests on: rule and field path of every failure.
std::string verdict_of(const reconcile::Result& r, std::string_view strip_prefix = {}) {
  std::string out = r.ok ? "ok" : "fail";
  for (const auto& f : r.failures) {
    std::string_view path = f.field_path;
    if (!strip_prefix.empty() && path.substr(0, strip_prefix.size()) == strip_prefix) path.remove_prefix(strip_prefix.size());
    out += " " + std::to_string(f.rule) + ":" + std::string(path);
  }
  return out;
}

}  // namespace

Depth reconcile_target(std::string_view data) {
  auto records = common::parse_jsonl_text(data, options());
  if (!records) return refused(records.error(), Depth::parse_refused);
  if (records->size() > 64) return Depth::later_refused;
  reconcile::MultiStepReconciler multi;
  bool all_ok = true;
  for (std::size_t i = 0; i < records->size(); ++i) {
    const auto& value = (*records)[i].value;
    const auto alone = reconcile::reconcile_receipt(value);
    const auto inside = multi.add(value);
    const std::string prefix = "receipts[" + std::to_string(i) + "].";
    expect(verdict_of(alone) == verdict_of(inside, prefix), "a record's verdict is the same alone and in a bundle",
           verdict_of(alone) + " | " + verdict_of(inside, prefix));
    (void)reconcile::to_json(alone);
    all_ok = all_ok && alone.ok;
    // emit(parse(x)) verifies iff x verifies, where emission keeps every value (it reorders keys
    // into schema order and may re-spell numbers, neither of which may change a verdict).
    auto line = receipt::emit::emit_receipt_line(value);
    if (!line) continue;
    const auto emitted = parse_receipt_lines(*line);
    if (nlohmann::json(emitted[0]) == nlohmann::json(value)) {
      expect(reconcile::reconcile_receipt(emitted[0]).ok == alone.ok, "emit(parse(x)) verifies iff x verifies",
             line->substr(0, 200));
    }
  }
  const auto cross = multi.finish();
  (void)reconcile::to_json(cross);
  return all_ok && cross.ok ? Depth::accepted : Depth::later_refused;
}

Target find_target(std::string_view name) {
  if (name == "reconcile") return reconcile_target;
  if (name == "json") return json_target;
  if (name == "json_document") return json_document_target;
  if (name == "topology") return topology_target;
  if (name == "receipts") return receipts_target;
  if (name == "import") return import_target;
  if (name == "capture") return capture_target;
  if (name == "tensor_step") return tensor_step_target;
  return nullptr;
}

}  // namespace fuzz
