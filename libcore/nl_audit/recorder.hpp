#pragma once
// ReceiptRecorder: the receipts of a training run (receipt.hpp), one line per audited step,
// chained by digest. nltrain calls it around Trainer::build_step.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "nl/trainer.hpp"
#include "nl_audit/receipt.hpp"

namespace nl_audit {

// Where a run's receipt chain stands; kept in checkpoints so a resumed run continues it.
struct ChainPosition {
  std::uint64_t next_index = 0;
  std::optional<std::string> last_sha256;  // the previous receipt's line digest
  std::optional<std::uint64_t> last_step;  // its step
};

struct RecorderOptions {
  bool compact = false;    // tokens by offset, gradients and states after by digest
  std::uint64_t every = 1;  // audit steps n with n mod every == 0
  std::string trainer_version;
  std::string data_sha256;
  std::uint64_t data_bytes = 0;
  std::string gradient_path = "tape";
  nl::TokenFormat data_format = nl::TokenFormat::bytes;  // how the data file spells its tokens
  std::string device{};  // kernels.device: libgpu's kernels that ran the steps ("cpu-launcher", "cuda:I"); empty: nl's own
};

struct StepData {
  std::uint64_t chunk = 0, offset = 0;  // offset: of the chunk's first token in the data, in bytes
  bool context_reset = false;  // the context went back to its initial state before the step
  std::span<const std::size_t> ids, targets;
};

class ReceiptRecorder {
 public:
  ReceiptRecorder(RecorderOptions o, ChainPosition at);

  [[nodiscard]] bool wants(std::uint64_t step) const { return step % options_.every == 0; }
  // `before`: the trainer's state before the step (before a context reset); `after` after it.
  // T = double: an fp64 run's receipt (f64 tensors, "precision":"fp64").
  template <typename T>
  [[nodiscard]] std::string record(const nl::BasicTrainerState<T>& before, const StepData& d, const nl::BasicStepReport<T>& report,
                                   const nl::BasicStepTrace<T>& trace, const nl::BasicTrainerState<T>& after);
  [[nodiscard]] const ChainPosition& position() const { return at_; }

 private:
  RecorderOptions options_;
  ChainPosition at_;
  std::string blas_;
};

}  // namespace nl_audit
