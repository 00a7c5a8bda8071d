#pragma once
// Fuzz targets over the suite's parsers and emitters. Each takes arbitrary bytes, must never crash,
// hang or leak, and checks the invariants a correct implementation keeps on any input; a broken
// invariant prints one line to stderr and aborts, which both libFuzzer and fuzz_smoke report.
//
//   json        common::parse_json_text / parse_jsonl_text: accepted text re-parses to the same
//               value; errors are one line.
//   json_document  common::parse_json_document against parse_json_text: the same verdict, the same
//               error line, the same value, under both BOM policies.
//   topology    topology-input -> engine -> receipt: the typed writer and the document emitter
//               agree byte for byte, the receipt is valid against our schema, and reproducing it
//               from its own bytes reaches a fixed point.
//   receipts    JSONL receipts -> validator, emitter, reproduce: emitted bytes are a fixed point
//               (emit(parse(emit(r))) == emit(r)).
//   reconcile   JSONL receipts -> reconciler: never throws; a record's verdict is the same alone
//               and inside a multi-step bundle; a record whose numbers survive canonical emission
//               unchanged has the same verdict after emit(parse(x)) as before.
//   import      receipts as framework-trace sidecars -> bp import, one step and as a bundle
//               (fuzz_import_target.cpp).
//   capture     the same sidecars as a helper capture, damaged now and then -> expand_capture and
//               bp import (fuzz_import_target.cpp).
//   tensor_step nltrain's step receipts -> reader and stream verifier (fuzz_tensor_step_target.cpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fuzz {

// How far an input got: 0 refused by the first parser, 1 refused later (schema, engine), 2 went
// all the way through. fuzz_smoke reports the counts, so a corpus that never gets deep shows.
enum class Depth { parse_refused = 0, later_refused = 1, accepted = 2 };

Depth json_target(std::string_view data);
Depth json_document_target(std::string_view data);
Depth topology_target(std::string_view data);
Depth receipts_target(std::string_view data);
Depth reconcile_target(std::string_view data);
Depth import_target(std::string_view data);
Depth capture_target(std::string_view data);
Depth tensor_step_target(std::string_view data);

// "json" | "json_document" | "topology" | "receipts" | "reconcile" | "import" | "capture" | "tensor_step" -> the target, or nullptr.
using Target = Depth (*)(std::string_view);
[[nodiscard]] Target find_target(std::string_view name);
// "json" | "json_document" only (fuzz_json_targets.cpp: these link common alone).
[[nodiscard]] Target find_json_target(std::string_view name);

}  // namespace fuzz
