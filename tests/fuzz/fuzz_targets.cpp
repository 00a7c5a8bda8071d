#include "fuzz_targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/json_input.hpp"
#include "fuzz_checks.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"
#include "receipt/topology/parse_topology_input.hpp"
#include "common/json_document_reader.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"

namespace fuzz {
namespace {

std::vector<nlohmann::ordered_json> parse_receipt_lines(const std::string& text) {
  auto records = common::parse_jsonl_text(text, options());
  expect(records.ok(), "emitted receipts parse back", records.ok() ? "" : records.error().to_string());
  std::vector<nlohmann::ordered_json> out;
  for (auto& r : *records) out.push_back(std::move(r.value));
  return out;
}

}  // namespace

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
    out += ' ';  // appends: a literal + a temporary draws GCC 12's false -Wrestrict at -O3
    out += std::to_string(f.rule);
    out += ':';
    out += path;
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
    // The rules read a document as they read its tree (bp reads documents): the same result.
    if (auto doc = common::parse_json_document(value.dump()); doc.ok()) {
      // So does the schema check, which keeps what passed of the last documents' root members
      // (by their bytes) on this thread: every input before this one is such a document.
      if (const auto* schema = schema_registry::find_schema(schema_registry::pick_receipt_version(value))) {
        std::string from_tree, from_doc;
        for (const auto& e : schema_registry::validate(*schema, value, 3)) from_tree += e.to_string() + "\n";
        for (const auto& e : schema_registry::validate(*schema, doc->root(), 3)) from_doc += e.to_string() + "\n";
        expect(from_doc == from_tree, "a document's schema errors are its tree's", from_doc + " | " + from_tree);
      }
      const auto from_document = reconcile::reconcile_receipt(reconcile::ReadReceipt(std::move(*doc)));
      const std::string got = reconcile::to_json(from_document).dump(), want = reconcile::to_json(alone).dump();
      std::size_t at = 0;
      while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
      expect(got == want, "a record read as a document reconciles as its tree does",
             "at byte " + std::to_string(at) + ": " + got.substr(at > 120 ? at - 120 : 0, 240) + " | " +
                 want.substr(at > 120 ? at - 120 : 0, 240));
    }
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
  if (Target t = find_json_target(name)) return t;
  if (name == "reconcile") return reconcile_target;
  if (name == "topology") return topology_target;
  if (name == "receipts") return receipts_target;
  if (name == "import") return import_target;
  if (name == "capture") return capture_target;
  if (name == "tensor_step") return tensor_step_target;
  return nullptr;
}

}  // namespace fuzz
