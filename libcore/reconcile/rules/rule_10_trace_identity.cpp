// Rule 10: trace identity and step ordering. When the first record has a trace_id, every record
// carries that same trace_id and record i has step_index i (0, 1, 2, ... dense, no gaps, duplicates
// or reorderings). A first record without trace_id exempts the bundle (legacy single-step use).
// Kept between records: the first record's trace_id.
#include <cmath>
#include <optional>
#include <string>

#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

// What Rule 10 reads of a record: its trace_id and step_index.
struct TraceNotes final : RecordNotes {
  bool is_record = false;              // an object or array (typeof "object"): the rule reads only these
  std::optional<Tree> trace_id;        // absent: undefined; copied out of the record
  std::optional<Tree> step;            // step_index; absent: undefined
};

class TraceIdentity final : public CrossRecordRule {
 public:
  std::unique_ptr<RecordNotes> notes(const ReadReceipt& read) const override {
    const Json& r = read.root();
    auto n = std::make_unique<TraceNotes>();
    if (!js_object(r)) return n;
    n->is_record = true;
    if (const Json* id = member(r, "trace_id")) n->trace_id = to_tree(*id);
    if (const Json* step = member(r, "step_index")) n->step = to_tree(*step);
    return n;
  }

  void observe(std::size_t index, RecordNotes& notes) override {
    auto& n = static_cast<TraceNotes&>(notes);
    if (index == 0) {
      if (!n.is_record || !n.trace_id) {
        exempt_ = true;
        return;
      }
      expected_ = *n.trace_id;
      // An object or array trace_id is only === to itself (record 0's own).
      expected_is_value_ = !(expected_.is_object() || expected_.is_array());
    }
    if (exempt_ || !n.is_record) return;
    const Tree* id = n.trace_id ? &*n.trace_id : nullptr;
    const bool same = index == 0 || (expected_is_value_ && js_strict_equal(id, &expected_));
    const std::string at = "receipts[" + std::to_string(index) + "]";
    if (!same) {
      Failure f = plain_failure(10, at + ".trace_id",
                                "Trace ID mismatch at receipt " + std::to_string(index) + ": expected " +
                                    expected_.dump() + ", got " + (id ? id->dump() : std::string("\"(undefined)\"")) +
                                    ". All receipts in a multi-step training run must share trace_id.");
      f.stored.reset();  // the reference reports the two trace ids (strings) here
      f.recomputed.reset();
      failures_.add(std::move(f));
    }
    const Tree* step = n.step ? &*n.step : nullptr;
    const auto step_number = as_number(step);
    if (!step_number || *step_number != static_cast<double>(index)) {
      const double observed = step_number.value_or(-1);
      Failure f = plain_failure(10, at + ".step_index",
                                "step_index gap or reorder at receipt " + std::to_string(index) + ": expected " +
                                    std::to_string(index) + ", got " +
                                    (step ? step->dump() : std::string("\"(undefined)\"")) +
                                    ". Multi-step receipts must be 0-indexed, monotonic, and dense.");
      f.stored = observed;
      f.recomputed = static_cast<double>(index);
      f.delta = std::fabs(observed - static_cast<double>(index));
      failures_.add(std::move(f));
    }
  }

  void finish(FailureSink& out) override { failures_.flush(out); }

  std::size_t retained_state() const override { return failures_.kept() + retained_elements(expected_); }

 private:
  bool exempt_ = false;
  Tree expected_;
  bool expected_is_value_ = true;
  CappedFailures failures_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_10_trace_identity() { return std::make_unique<TraceIdentity>(); }

}  // namespace reconcile::rules
