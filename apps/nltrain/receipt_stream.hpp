#pragma once
// nltrain train --receipts: one tensor-step receipt per audited step (nl_audit), written as the
// step completes and chained by digest across --resume (the chain's position is kept in the
// checkpoint's run record).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <type_traits>

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
  std::string device;  // kernels.device: the canonical --device when libgpu's kernels run the steps; empty for cpu
};

class ReceiptStream {
 public:
  // On resume, the same file keeps the receipts of steps before `resume_step` and must end with
  // the receipt the checkpoint's chain continues from.
  // `fp64`: the run trains in binary64 by the hand-written backward (kernels.gradient_path).
  [[nodiscard]] common::Status open(const ReceiptFlags& f, const RunRecord& run, std::optional<std::uint64_t> resume_step,
                                    bool fp64 = false);
  [[nodiscard]] bool enabled() const { return recorder_.has_value(); }
  [[nodiscard]] bool on_stdout() const { return sink_.on_stdout(); }

  // Around Trainer::build_step: before() keeps the state when the step is audited and returns
  // the trace to pass to build_step (nullptr when it is not); after() writes the receipt.
  // T: float, or double for an --fp64 run (its receipts carry f64 tensors).
  template <typename T>
  [[nodiscard]] nl::BasicStepTrace<T>* before(const nl::BasicTrainer<T>& t);
  template <typename T>
  [[nodiscard]] common::Status after(const nl::BasicTrainer<T>& t, const nl_audit::StepData& d, const nl::BasicStepReport<T>& r);
  [[nodiscard]] nl_audit::ChainPosition position() const { return recorder_ ? recorder_->position() : nl_audit::ChainPosition{}; }
  // Into the run record a checkpoint saves: where the chain stands and how its receipts are
  // written (none of it without receipts).
  void keep_in(RunRecord& run) const {
    run.receipts = position();
    run.receipt_every = enabled() ? std::optional(every_) : std::nullopt;
    run.compact_receipts = enabled() && compact_;
  }

 private:
  JsonlSink sink_;
  std::optional<nl_audit::ReceiptRecorder> recorder_;
  std::uint64_t every_ = 1;
  bool compact_ = false;
  // The state before the audited step and its trace, in the run's precision.
  std::optional<nl::TrainerState> before_;
  nl::StepTrace trace_;
  std::optional<nl::TrainerState64> before64_;
  nl::StepTrace64 trace64_;
  template <typename T>
  std::pair<std::optional<nl::BasicTrainerState<T>>*, nl::BasicStepTrace<T>*> held() {
    if constexpr (std::is_same_v<T, double>) {
      return {&before64_, &trace64_};
    } else {
      return {&before_, &trace_};
    }
  }
};

}  // namespace nltrain::cli
