#pragma once
// nltrain train --receipts: one tensor-step receipt per audited step (nl_audit), written as the
// step completes and chained by digest across --resume (the chain's position is kept in the
// checkpoint's run record).
#include <cstdint>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "jsonl_sink.hpp"
#include "nl/trainer.hpp"
#include "nl_audit/recorder.hpp"
#include "run_dir.hpp"

namespace nltrain::cli {

struct ReceiptFlags {
  std::string path;  // empty: no receipts
  std::optional<std::uint64_t> every;
  bool compact = false;
};

class ReceiptStream {
 public:
  // On resume, the same file keeps the receipts of steps before `resume_step` and must end with
  // the receipt the checkpoint's chain continues from.
  [[nodiscard]] common::Status open(const ReceiptFlags& f, const RunRecord& run, std::optional<std::uint64_t> resume_step);
  [[nodiscard]] bool enabled() const { return recorder_.has_value(); }
  [[nodiscard]] bool on_stdout() const { return sink_.on_stdout(); }

  // Around Trainer::build_step: before() keeps the state when the step is audited and returns
  // the trace to pass to build_step (nullptr when it is not); after() writes the receipt.
  [[nodiscard]] nl::StepTrace* before(const nl::Trainer& t);
  [[nodiscard]] common::Status after(const nl::Trainer& t, const nl_audit::StepData& d, const nl::StepReport& r);
  [[nodiscard]] nl_audit::ChainPosition position() const { return recorder_ ? recorder_->position() : nl_audit::ChainPosition{}; }

 private:
  JsonlSink sink_;
  std::optional<nl_audit::ReceiptRecorder> recorder_;
  std::optional<nl::TrainerState> before_;
  nl::StepTrace trace_;
};

}  // namespace nltrain::cli
