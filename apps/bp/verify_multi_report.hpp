#pragma once
// The report of `bp verify multi`, the reference's shape: the overall verdict, then the per-record
// entries and the cross-record checks (--json: one object on stdout; otherwise text on stderr).
// The verdict comes last from the library (verify/multi.hpp) but is printed first, so what the
// library tells about each record as it goes is rendered at once into spools (common/spool.hpp,
// temporary files) and copied out after the verdict.
#include <optional>
#include <string>

#include "argv_scan.hpp"
#include "verify/multi_run.hpp"
#include "common/spool.hpp"

namespace bp::cli {

class MultiReportSpool final : public verify::MultiObserver {
 public:
  explicit MultiReportSpool(const Invocation& inv);

  // Opens the two spools; the error text when one cannot be made.
  [[nodiscard]] std::optional<std::string> open();

  void record(std::size_t index, const verify::ReceiptLabel& label, const verify::Check& schema,
              const verify::Check& reconcile) override;
  void cross_failure(const reconcile::Failure& failure, std::size_t counted_before) override;
  void cross_failures_void() override { cross_evidence_.clear(); }
  [[nodiscard]] bool failed() override { return per_record_.failed() || cross_evidence_.failed(); }

  [[nodiscard]] common::Spool& per_record() { return per_record_; }
  [[nodiscard]] common::Spool& cross_evidence() { return cross_evidence_; }
  [[nodiscard]] bool color() const { return color_; }

 private:
  const Invocation& inv_;
  bool color_;
  common::Spool per_record_, cross_evidence_;
};

// Writes the report; returns the exit status.
[[nodiscard]] int write_multi_report(const Invocation& inv, MultiReportSpool& spool,
                                     const verify::MultiOutcome& outcome);

}  // namespace bp::cli
