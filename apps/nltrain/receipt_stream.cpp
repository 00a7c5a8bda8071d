#include "receipt_stream.hpp"

#include "build_info/build_info.hpp"
#include "common/sha256.hpp"

namespace nltrain::cli {

common::Status ReceiptStream::open(const ReceiptFlags& f, const RunRecord& run, std::optional<std::uint64_t> resume_step, bool fp64) {
  if (f.path.empty()) {
    if (f.every || f.compact) return common::Error::invalid_argument("--receipt-every and --compact-receipts need --receipts F|-");
    return {};
  }
  if (f.every && *f.every == 0) return common::Error::invalid_argument("--receipt-every: must be at least 1");
  if (f.compact && run.data.empty()) {
    return common::Error::invalid_argument(
        "--compact-receipts name the tokens by their offset in the data, which bp verify nltrain --data reads: train with --data F "
        "(the embedded corpus is no file to give it)");
  }
  auto step_of = [](const nlohmann::ordered_json& j) -> std::optional<std::uint64_t> {
    if (!j.is_object() || j.value("format", "") != "tensor-step" || !j.contains("step") || !j["step"].is_object() ||
        !j["step"].contains("n") || !j["step"]["n"].is_number_unsigned()) {
      return std::nullopt;
    }
    return j["step"]["n"].get<std::uint64_t>();
  };
  // A resumed chain goes on as it was written: its --receipt-every and --compact-receipts unless
  // restated. A different N is refused (the chain would no longer verify); --compact-receipts may
  // be added, which the verifier reads across (there is no flag that takes it away).
  const nl_audit::ChainPosition& at = run.receipts;
  every_ = f.every.value_or(1);
  compact_ = f.compact;
  if (resume_step && at.next_index > 0) {
    if (run.receipt_every) {
      if (f.every && *f.every != *run.receipt_every) {
        return common::Error::invalid_argument("--receipt-every: " + std::to_string(*f.every) + " differs from the " +
                                               std::to_string(*run.receipt_every) +
                                               " of the run's receipt chain; --resume keeps it");
      }
      every_ = *run.receipt_every;
    }
    compact_ = compact_ || run.compact_receipts;
  }
  std::string tail;
  if (common::Status s = sink_.open("--receipts", "a file of nltrain step receipts", f.path, resume_step, step_of, &tail); !s.ok()) return s;
  if (!tail.empty() && (at.next_index == 0 || common::sha256_hex(tail) != at.last_sha256)) {
    return common::Error::malformed("--receipts: " + f.path + " does not end with the receipt the checkpoint's chain continues from (receipt " +
                                    std::to_string(at.next_index) + " of the run); write the resumed receipts to a new file");
  }
  recorder_.emplace(nl_audit::RecorderOptions{compact_, every_, std::string(build_info::version()), run.data_sha256,
                                              run.data_bytes, fp64 ? "hand_written" : "tape", run.data_format, f.device},
                    at);
  return {};
}

template <typename T>
nl::BasicStepTrace<T>* ReceiptStream::before(const nl::BasicTrainer<T>& t) {
  auto [state, trace] = held<T>();
  state->reset();
  if (!recorder_ || !recorder_->wants(t.step())) return nullptr;
  *state = t.state();
  return trace;
}

template <typename T>
common::Status ReceiptStream::after(const nl::BasicTrainer<T>& t, const nl_audit::StepData& d, const nl::BasicStepReport<T>& r) {
  auto [state, trace] = held<T>();
  if (!*state) return {};
  const std::string line = recorder_->record(**state, d, r, *trace, t.state());
  state->reset();
  return sink_.write(line);
}

template nl::StepTrace* ReceiptStream::before(const nl::Trainer&);
template nl::StepTrace64* ReceiptStream::before(const nl::Trainer64&);
template common::Status ReceiptStream::after(const nl::Trainer&, const nl_audit::StepData&, const nl::StepReport&);
template common::Status ReceiptStream::after(const nl::Trainer64&, const nl_audit::StepData&, const nl::StepReport64&);

}  // namespace nltrain::cli
