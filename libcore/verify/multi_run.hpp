#pragma once
// What one `verify multi` run keeps between records: the running verdict and the cross-record
// reconciler. Each record gets schema[i] and reconcile[i] (per-record rules, and fed to
// reconcile::MultiStepReconciler for the cross-record ones) and is then released; finish() adds
// the cross-record checks. Nothing here renders: a MultiObserver, when given, is told each
// record's checks and each cross-record failure as they are decided, in the order the
// reference's report lists them (bp spools them, apps/bp/verify_multi_report.cpp).
//
// A record's work is split in two: prepare_record (schema check, the record's own rules, its
// label, whether it has a trace_id) needs nothing from the other records, so it may run on any thread in any order;
// MultiRun::add folds prepared records into the run strictly in input order.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "reconcile/reconcile.hpp"
#include "verify/checks.hpp"
#include "verify/report.hpp"

namespace verify {

class MultiObserver {
 public:
  MultiObserver() = default;
  MultiObserver(const MultiObserver&) = delete;
  MultiObserver& operator=(const MultiObserver&) = delete;
  virtual ~MultiObserver() = default;

  // Record `index`'s two checks, in input order.
  virtual void record(std::size_t index, const ReceiptLabel& label, const Check& schema, const Check& reconcile) = 0;
  // One failure of the cross-record check "multi-step-rules-9-10", in reconcileMultiStep's order;
  // `counted_before` is how many that check counted before it (failures not listed included).
  virtual void cross_failure(const reconcile::Failure& failure, std::size_t counted_before) = 0;
  // A record failed its schema: the cross-record check is skipped, the failures sent so far are void.
  virtual void cross_failures_void() = 0;
  // True when the observer could not keep what it was sent (say its disk is full): verify_multi
  // stops with StreamFailure::observer_failed before the cross-record checks.
  [[nodiscard]] virtual bool failed() { return false; }
};

struct MultiOutcome {
  std::string overall;          // "pass" | "warn" | "fail"
  std::size_t records = 0;
  std::vector<Check> cross;     // multi-step-rules-9-10, then trace-identity / math-gate when they apply
  bool rules_evidence_sent = false;  // cross[0] failed; its evidence went to the observer, not into cross[0]
  bool math_gate_skipped = false;    // some record self-declares the Rule 14 skip
  std::vector<int> skipped_rules;    // the rules those records skipped, ascending
  bool has_coverage = false;
  reconcile::Result bundle;     // the cross-record result (coverage)
  std::string first_problem;    // "reconcile[3]: 2 rule failure(s)": the first check that is not a pass
};

// Record `index` with everything decided about it alone; its tree is released where it was
// prepared (the cross-record fold reads only its facts).
struct PreparedRecord {
  Check schema;                             // schema[index]
  std::optional<reconcile::Result> own;     // the record's own rules; only when its schema passes
  std::optional<reconcile::RecordFacts> facts;  // what the cross-record rules read; the same
  ReceiptLabel label;
  bool traced = false;                      // an object with a trace_id member
  // The record's text, no longer read: its storage for the stream reader's next line, so that
  // lines are neither allocated nor freed once a stream is under way (with --jobs, a line freed
  // by the worker that read it cost the allocator more than it costs to keep it).
  std::string text;
};

// Pure: no state, no observer; `receipt` is taken over and released. verify multi reads each
// record as a JsonDocument: the schema check, the label and the rules (reconcile::ReadReceipt,
// 16 bytes a value, built only for a record its schema accepts) read it in place.
[[nodiscard]] PreparedRecord prepare_record(common::JsonDocument&& receipt, std::size_t index);
// The same of a tree (what tests and tree holders have): the same PreparedRecord.
[[nodiscard]] PreparedRecord prepare_record(nlohmann::ordered_json receipt, std::size_t index);

class MultiRun {
 public:
  // `observer` may be null (only the verdict is wanted); it must outlive the run.
  MultiRun(const VerdictOptions& options, MultiObserver* observer);

  // The next record (its index is records()), prepared by prepare_record with that index.
  void add(PreparedRecord& record);
  [[nodiscard]] std::size_t records() const { return records_; }
  [[nodiscard]] MultiOutcome finish();

 private:
  void add_skipped_rule(int rule);
  void send_cross_failures(const reconcile::Result& r);
  void note(const Check& c);

  VerdictOptions options_;
  MultiObserver* observer_;
  reconcile::MultiStepReconciler multi_;
  Verdict verdict_;
  bool all_valid_ = true;
  bool untraced_ = false;  // record 0 carries no trace_id (Rule 10 exempts the bundle)
  std::size_t records_ = 0;
  std::size_t cross_failures_ = 0;
  std::vector<std::size_t> math_gate_steps_;
  std::vector<int> skipped_rules_;
  std::string first_problem_;
};

}  // namespace verify
