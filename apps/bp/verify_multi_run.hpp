#pragma once
// What one `bp verify multi` run keeps between records: the running verdict, the cross-record
// reconciler, and (when a report is wanted) the per-record entries and cross-record evidence
// spooled in the order the report prints them. finish() adds the cross-record checks; nothing is
// written here (verify_multi_report.cpp renders, verify_batch.cpp takes only the verdict).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "argv_scan.hpp"
#include "reconcile/reconcile.hpp"
#include "verify_report.hpp"
#include "verify_spool.hpp"

namespace bp::cli {

class MultiRun {
 public:
  // `spool_report`: keep the report's text (false when only the verdict is wanted).
  MultiRun(const Invocation& inv, bool spool_report);

  [[nodiscard]] std::optional<std::string> open();
  void add(std::size_t index, const nlohmann::ordered_json& receipt);
  [[nodiscard]] std::size_t records() const { return records_; }

  struct Outcome {
    std::string overall;          // "pass" | "warn" | "fail"
    std::vector<Check> cross;     // multi-step-rules-9-10, then trace-identity / math-gate when they apply
    bool rules_evidence_spooled = false;  // cross[0]'s evidence is in cross_evidence()
    bool has_coverage = false;
    reconcile::Result bundle;     // the cross-record result (coverage)
    std::string first_problem;    // "reconcile[3]: 2 rule failure(s)": the first check that is not a pass
  };
  [[nodiscard]] Outcome finish();

  // True when a spool could not be written (its file system is full).
  [[nodiscard]] bool spool_failed() { return per_record_.failed() || cross_evidence_.failed(); }
  [[nodiscard]] Spool& per_record() { return per_record_; }
  [[nodiscard]] Spool& cross_evidence() { return cross_evidence_; }
  [[nodiscard]] const std::vector<int>& skipped_rules() const { return skipped_rules_; }
  [[nodiscard]] bool any_math_gate_skipped() const { return !math_gate_steps_.empty(); }
  [[nodiscard]] bool color() const { return color_; }

 private:
  void add_skipped_rule(int rule);
  void spool_cross_failures(const reconcile::Result& r);
  void spool_record(std::size_t index, const nlohmann::ordered_json& receipt, const Check& schema, const Check& rec);
  void note(const Check& c);

  const Invocation& inv_;
  bool spool_report_;
  bool color_;
  Spool per_record_, cross_evidence_;
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

}  // namespace bp::cli
