#pragma once
// Rule 14's engine run: the step the receipt describes, recomputed by our engine. The input is the
// document the reference's verifier builds from the receipt (only the fields it forwards; batch
// samples reduced to their inputs and targets; the optimizer state by parameter_order). Reading
// it back from an assembled copy of that document cost a quarter of `bp verify multi`'s time, so
// it is read in place from the receipt's members: only the members Rule 14 derives (per_sample of
// a batch, optimizer_config and state, a topology whose layers differ) are built.
#include "common/result.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/json_access.hpp"

namespace reconcile::rules {

enum class EngineInputPath {
  in_place,  // read from the receipt's members; its refusals may name another member than...
  document,  // ...the assembled document's, which name the first offending key in sorted order
};

// The engine's receipt for `receipt` (a batched step when `batched`), its input read by `path`, as
// the engine's struct (to_json, receipt/engine/receipt_json.hpp, gives the reference's document).
// Errors are the reference engine's refusal texts.
[[nodiscard]] common::Result<receipt::engine::GeneralReceipt> recompute_engine_receipt(const ReadReceipt& receipt, bool batched, EngineInputPath path);

// What Rule 14 runs: in place, and through the document where that refuses, so every refusal
// keeps the document path's exact text.
[[nodiscard]] common::Result<receipt::engine::GeneralReceipt> recompute_engine_receipt(const ReadReceipt& receipt,
                                                                                      bool batched);

}  // namespace reconcile::rules
