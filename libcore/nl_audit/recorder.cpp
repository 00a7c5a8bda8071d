#include "nl_audit/recorder.hpp"

#include <type_traits>

#include "common/sha256.hpp"
#include "nl_audit/kernel_identity.hpp"

namespace nl_audit {

ReceiptRecorder::ReceiptRecorder(RecorderOptions o, ChainPosition at)
    : options_(std::move(o)), at_(std::move(at)), blas_(blas_identity()) {
  if (options_.every == 0) options_.every = 1;
}

template <typename T>
std::string ReceiptRecorder::record(const nl::BasicTrainerState<T>& before, const StepData& d, const nl::BasicStepReport<T>& report,
                                    const nl::BasicStepTrace<T>& trace, const nl::BasicTrainerState<T>& after) {
  const bool with_bytes = !options_.compact;
  Receipt r;
  r.trainer_version = options_.trainer_version;
  r.cfg = before.cfg;
  r.opt = before.opt;
  r.fp64 = std::is_same_v<T, double>;
  r.model_sha256 = model_digest(r.cfg, r.opt, r.fp64);
  r.data_sha256 = options_.data_sha256;
  r.data_bytes = options_.data_bytes;
  r.data_format = options_.data_format;
  r.gradient_path = options_.gradient_path;
  r.blas = blas_;
  r.device = options_.device;
  r.index = at_.next_index;
  r.every = options_.every;
  r.previous_sha256 = at_.last_sha256;
  r.step = before.step;
  r.chunk = d.chunk;
  r.offset = d.offset;
  r.context_reset = d.context_reset;
  if (with_bytes) r.tokens = Tokens{{d.ids.begin(), d.ids.end()}, {d.targets.begin(), d.targets.end()}};
  r.pulse = report.pulse.active;
  r.lr = trace.lr;
  r.loss = report.loss;
  r.grad_norm = trace.grad_norm;
  r.clip_scale = trace.clip_scale;
  // The state before travels in full (always with its bytes: the verifier starts from it) on
  // the first receipt and between receipts `every` > 1 steps apart; otherwise it is the
  // previous receipt's `after`.
  if (at_.next_index == 0 || options_.every > 1) r.before = encode_state(before, true);
  r.gradients = encode_gradients(r.cfg, trace, report.pulse, with_bytes);
  r.after = encode_state(after, with_bytes);
  std::string line = write_receipt(r);
  at_ = {at_.next_index + 1, common::sha256_hex(line), before.step};
  return line;
}

template std::string ReceiptRecorder::record<float>(const nl::TrainerState&, const StepData&, const nl::StepReport&,
                                                    const nl::StepTrace&, const nl::TrainerState&);
template std::string ReceiptRecorder::record<double>(const nl::TrainerState64&, const StepData&, const nl::StepReport64&,
                                                     const nl::StepTrace64&, const nl::TrainerState64&);

}  // namespace nl_audit
