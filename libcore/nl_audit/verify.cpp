#include "nl_audit/verify.hpp"

#include <functional>
#include <future>
#include <memory>
#include <type_traits>

#include "tape/opaque/opaque_registry.hpp"
#include "common/sha256.hpp"
#include "nl_audit/fp64_checks.hpp"
#include "nl_audit/kernel_identity.hpp"
#include "nl_audit/stages.hpp"
#include "nl_audit/tensor_compare.hpp"

namespace nl_audit {

struct StreamVerifier::Impl {
  // Way (b) of one step in its precision T, with everything it reads owned, so that it can run
  // beside the next step.
  template <typename T>
  struct Fp64Job {
    Receipt r;
    nl::BasicTrainerState<T> before;
    std::vector<std::size_t> ids, targets;
    nl::BasicStepTrace<T> stored;
    nl::BasicTrainerState<T> after;
    std::int64_t line = 0;
  };
  struct Fp64Result {
    std::vector<Failure> failures;
    bool per_entry = true;  // false: judged norm-wise (fp64_checks.hpp)
  };
  template <typename T>
  static Fp64Result run_fp64(const Fp64Job<T>& j) {
    Fp64Result out;
    out.per_entry = check_fp64(BasicFp64Case<T>{j.r, j.before, j.ids, j.targets, j.stored, j.after}, [&](Failure f) {
      f.line = j.line;
      out.failures.push_back(std::move(f));
    });
    return out;
  }
  using Job = std::function<Fp64Result()>;

  explicit Impl(VerifyOptions o) : opt(std::move(o)) {}

  // Empty on purpose: the recomputation takes the hand-written path, and a registry without the
  // tape's VJPs makes sure the tape that produced the receipt cannot vouch for it.
  const tape::opaque::OpaqueRegistry registry;
  VerifyOptions opt;
  std::uint64_t receipts = 0, failure_count = 0, not_bitwise = 0, normwise = 0;
  std::vector<Failure> failures;
  std::array<RuleTally, 10> tally{};
  std::string here_blas = blas_identity();
  std::string kernel_device;  // the first receipt's kernels.device that names libgpu's kernels
  bool data_checked = false;
  // The previous receipt: what the next one must continue.
  std::optional<Receipt> first;  // identity fields only matter
  std::uint64_t prev_index = 0, prev_step = 0;
  std::string prev_sha256;
  std::vector<std::string> prev_after_digests;
  std::optional<nl::TrainerState> carried;  // the state after the previous step
  std::optional<nl::TrainerState64> carried64;  // likewise, of an fp64 run's receipts
  template <typename T>
  std::optional<nl::BasicTrainerState<T>>& carried_as() {
    if constexpr (std::is_same_v<T, double>) {
      return carried64;
    } else {
      return carried;
    }
  }
  // The previous step's way (b) when it runs on its own thread, and this step's failures held
  // back meanwhile: they are reported after it, as a single thread would have.
  std::future<Fp64Result> pending;
  std::vector<Failure> held;
  bool holding = false;

  void fail(Failure f) {
    if (holding) {
      held.push_back(std::move(f));
      return;
    }
    if (f.rule < tally.size() && !opt.disabled[f.rule]) {
      ++tally[f.rule].failed;
      ++failure_count;
      if (failures.size() < kMaxFailures) failures.push_back(std::move(f));
    }
  }
  bool on(unsigned rule) {
    if (opt.disabled[rule]) return false;
    ++tally[rule].checked;
    return true;
  }

  void check_chain(const Receipt& r, std::int64_t line);
  // The first receipt's identity (model, data, trainer, kernels, every), without its tensors.
  void remember_first(const Receipt& r) {
    if (first) return;
    first = r;
    first->before.reset();
    first->gradients.clear();
    first->after.tensors.clear();
    first->tokens.reset();
  }
  common::Status check_data(const Receipt& r, std::int64_t line, std::vector<std::size_t>& ids, std::vector<std::size_t>& targets);
  common::Status step(std::string_view text, const std::string& file, std::int64_t line, Job& job);
  // Rules 2-9 on a read receipt, in its precision T (float, or double for an fp64 run's).
  template <typename T>
  common::Status step_as(Receipt& r, std::string_view text, const std::string& file, std::int64_t line, Job& job);
  // Reports the previous step's way (b), then what was held back.
  void drain() {
    holding = false;
    if (pending.valid()) {
      Fp64Result r = pending.get();
      normwise += r.per_entry ? 0 : 1;
      for (Failure& f : r.failures) fail(std::move(f));
    }
    std::vector<Failure> h = std::move(held);
    held.clear();
    for (Failure& f : h) fail(std::move(f));
  }
  common::Status add(std::string_view text, const std::string& file, std::int64_t line) {
    holding = pending.valid();
    Job job;
    common::Status s = step(text, file, line, job);
    drain();
    if (job) pending = std::async(std::launch::async, std::move(job));
    return s;
  }
};

namespace {

Failure failure(unsigned rule, std::int64_t line, std::uint64_t step, std::string message) {
  Failure f;
  f.rule = rule, f.line = line, f.step = step, f.message = std::move(message);
  return f;
}

std::vector<std::string> digests(const StateSection& s) {
  std::vector<std::string> out;
  for (const TensorEntry& e : s.tensors) out.push_back(e.sha256);
  return out;
}

}  // namespace

void StreamVerifier::Impl::check_chain(const Receipt& r, std::int64_t line) {
  if (!on(2)) return;
  auto bad = [&](std::string m) { fail(failure(2, line, r.step, std::move(m))); };
  if (r.before && r.before->counters.step != r.step) bad("before.counters.step is " + std::to_string(r.before->counters.step) + ", not the step");
  if (r.after.counters.step != r.step + 1) bad("after.counters.step is " + std::to_string(r.after.counters.step) + "; expected step + 1");
  if (r.step % r.every != 0) bad("step " + std::to_string(r.step) + " is not a multiple of every=" + std::to_string(r.every));
  if (!first) return;
  const Receipt& f = *first;
  if (r.model_sha256 != f.model_sha256) bad("the model differs from the first receipt's (another run spliced in?)");
  if (r.data_sha256 != f.data_sha256 || r.data_bytes != f.data_bytes || r.data_format != f.data_format) {
    bad("the data differs from the first receipt's");
  }
  if (r.trainer_version != f.trainer_version || r.gradient_path != f.gradient_path || r.blas != f.blas) {
    bad("trainer or kernels differ from the first receipt's");
  }
  if (r.index != prev_index + 1) bad("receipt index " + std::to_string(r.index) + " follows " + std::to_string(prev_index));
  if (!r.previous_sha256 || *r.previous_sha256 != prev_sha256) bad("previous_sha256 is not the digest of the previous receipt");
  if (r.every != f.every) bad("every=" + std::to_string(r.every) + " differs from the first receipt's " + std::to_string(f.every));
  if (r.step != prev_step + r.every) {
    bad("step " + std::to_string(r.step) + " does not follow step " + std::to_string(prev_step) + " (receipts every " +
        std::to_string(r.every) + " steps): a step dropped, repeated or reordered");
  }
  if (r.before && r.every == 1 && digests(*r.before) != prev_after_digests) {
    bad("the state before step " + std::to_string(r.step) + " is not the state after step " + std::to_string(prev_step));
  }
}

common::Status StreamVerifier::Impl::check_data(const Receipt& r, std::int64_t line, std::vector<std::size_t>& ids,
                                                std::vector<std::size_t>& targets) {
  const std::size_t L = r.cfg.seq_len;
  // The data is read as tokens of its format; offsets stay in bytes of the file (receipt.hpp).
  const nl::TokenFormat format = r.data_format;
  const std::uint64_t size = nl::token_size(format), n_tokens = r.data_bytes / size;
  const std::uint64_t chunks = (n_tokens - 1) / L;
  if (opt.data && !data_checked) {
    if (common::sha256_hex(*opt.data) != r.data_sha256 || opt.data->size() != r.data_bytes) {
      return common::Error::invalid_argument("--data: this file is not the data the receipts were trained on (its SHA-256 or size differs)");
    }
    data_checked = true;
  }
  if (!r.tokens && !opt.data) {
    return common::Error::invalid_argument("compact receipts name their tokens by offset into the data: give the data file with --data");
  }
  if (r.tokens) {
    ids = r.tokens->ids, targets = r.tokens->targets;
  } else {
    ids.resize(L), targets.resize(L);
  }
  // The first token the receipt's offset names, kept inside the data whatever the offset says.
  const std::uint64_t first = std::min<std::uint64_t>(r.offset / size, n_tokens - L - 1);
  auto token = [&](std::uint64_t i) { return nl::token_at(*opt.data, format, static_cast<std::size_t>(i)); };
  if (!on(3)) {
    if (!r.tokens) {  // still need tokens to recompute: take them from the data where the receipt says
      for (std::size_t i = 0; i < L; ++i) ids[i] = token(first + i), targets[i] = token(first + i + 1);
    }
    return {};
  }
  auto bad = [&](std::string m) { fail(failure(3, line, r.step, std::move(m))); };
  if (r.chunk != r.step % chunks) bad("chunk " + std::to_string(r.chunk) + " is not step mod " + std::to_string(chunks));
  if (r.offset != r.chunk * L * size) {
    bad("offset " + std::to_string(r.offset) + " is not chunk x seq_len" + (size > 1 ? " x " + std::to_string(size) + " bytes" : ""));
  }
  if (r.context_reset != (r.chunk == 0 && r.step > 0)) bad("context_reset must be true exactly when the data wraps (chunk 0, step > 0)");
  if (opt.data) {
    for (std::size_t i = 0; i < L; ++i) {
      const std::size_t want_id = token(first + i), want_target = token(first + i + 1);
      if (want_id >= r.cfg.vocab || want_target >= r.cfg.vocab) {
        // The receipts' model has no row for this token: the data cannot be what it trained on.
        Failure f = failure(3, line, r.step, "the data's token at byte offset " + std::to_string((first + i + (want_id < r.cfg.vocab)) * size) +
                                                 " is outside the model's vocab " + std::to_string(r.cfg.vocab));
        f.index = i;
        fail(std::move(f));
        break;
      }
      if (r.tokens && (ids[i] != want_id || targets[i] != want_target)) {
        Failure f = failure(3, line, r.step, "the tokens are not the data's tokens at the offset");
        f.index = i, f.stored = std::to_string(ids[i]) + "->" + std::to_string(targets[i]);
        f.recomputed = std::to_string(want_id) + "->" + std::to_string(want_target);
        fail(std::move(f));
        break;
      }
      ids[i] = want_id, targets[i] = want_target;
    }
  } else {
    for (std::size_t i = 0; i + 1 < L; ++i) {
      if (targets[i] != ids[i + 1]) {
        Failure f = failure(3, line, r.step, "targets are not the ids shifted by one");
        f.index = i;
        fail(std::move(f));
        break;
      }
    }
  }
  return {};
}

common::Status StreamVerifier::Impl::step(std::string_view text, const std::string& file, std::int64_t line,
                                          Job& job) {
  auto parsed = read_receipt(text, file, line);
  if (!parsed.ok()) return parsed.error();
  if (parsed->fp64) return step_as<double>(*parsed, text, file, line, job);
  return step_as<float>(*parsed, text, file, line, job);
}

template <typename T>
common::Status StreamVerifier::Impl::step_as(Receipt& r, std::string_view text, const std::string& file, std::int64_t line,
                                             Job& job) {
  if (!r.tokens && opt.cross_machine) {
    return common::Error::invalid_argument("--cross-machine needs full receipts: a compact one's numbers exist only as the digests of their bits");
  }
  ++receipts;
  ++tally[1].checked;
  check_chain(r, line);
  std::vector<std::size_t> ids, targets;
  if (common::Status s = check_data(r, line, ids, targets); !s.ok()) return s;

  // The state the step started from: the receipt's, or the one the previous receipt left.
  nl::BasicTrainerState<T> before;
  std::optional<nl::BasicTrainerState<T>>& carried = carried_as<T>();
  if (r.before) {
    auto b = decode_state<T>(*r.before, r.cfg, r.opt);
    if (!b.ok()) return b.error().at_file(file).at_line(line);
    before = std::move(*b);
  } else if (carried) {
    before = std::move(*carried);
    carried.reset();
  } else {
    return common::Error::malformed("receipt " + std::to_string(r.index) + " carries no state before and follows no receipt",
                                    {file, line, "/before"});
  }
  if (r.context_reset) before.context = nl::ContextMemory<T>::initial(r.cfg);
  const nl::BasicTrainerState<T>& seen = before;  // as the step read it

  auto trainer = nl::BasicTrainer<T>::from_state(before);
  if (!trainer.ok()) return trainer.error().at_file(file).at_line(line);
  nl::BasicStepTrace<T> trace;
  auto report = trainer->build_step(registry, ids, targets, nl::GradientPath::hand_written, &trace);
  if (!report.ok()) {
    if (on(4)) fail(failure(4, line, r.step, "the step cannot be recomputed: " + report.error().message()));
    remember_first(r);
    prev_index = r.index, prev_step = r.step, prev_sha256 = common::sha256_hex(text), prev_after_digests = digests(r.after);
    carried.reset();
    return {};
  }
  nl::BasicTrainerState<T> recomputed = std::move(*trainer).take_state();
  const bool full = r.tokens.has_value();
  // A step run by libgpu's kernels (kernels.device) is not nl's hand-written arithmetic, which is
  // all (a) can replay: its bits are not expected, and (b) judges it, as under --cross-machine.
  if (!r.device.empty() && kernel_device.empty()) kernel_device = r.device;
  const bool bits_expected = !opt.cross_machine && (r.device.empty() || !opt.fp64);
  TensorCompare cmp{line, r.step, bits_expected, [this](Failure f) { fail(std::move(f)); }, &not_bitwise};

  // Rules 4 and 5 (and 9's context): the step's forward and backward, from the state before.
  if (on(4)) cmp.scalar(4, "loss", static_cast<T>(r.loss), report->loss);  // an fp32 receipt's loss is a float's value
  // Tensors are compared by digest; their values are decoded only where a digest differs.
  const std::vector<TensorEntry> rec_grads = encode_gradients(r.cfg, trace, report->pulse, false);
  const bool grads_same = same_digests(r.gradients, rec_grads);
  if (on(5)) {
    cmp.tensors(r.gradients, rec_grads, [](const std::string&) { return 5u; }, [](unsigned) { return true; },
                [&, full_grads = std::optional<std::vector<TensorEntry>>()](std::size_t i) mutable {
                  if (!full_grads) full_grads = encode_gradients(r.cfg, trace, report->pulse, true);  // once, on a mismatch
                  return widened_values((*full_grads)[i]);
                });
  }
  // Rules 6-9 check each later stage from the receipt's own inputs to it (its gradients, rate
  // and pulse), so a forged number fails the rule that owns it, not every stage after it. A
  // compact receipt's gradients exist only as digests: its inputs are the recomputed ones.
  std::optional<nl::BasicStepTrace<T>> decoded;
  if (full && !grads_same) {
    auto g = decode_gradients<T>(r.gradients, r.cfg, nl::Pulse{r.pulse});
    if (!g.ok()) return g.error().at_file(file).at_line(line);
    decoded = std::move(*g);
  }
  BasicStageResult<T> stage;
  if (!decoded && r.lr == trace.lr && report->pulse.active == r.pulse) {
    // The stages' inputs are the recomputed step's, bit for bit, and the stages are the
    // trainer's own code: their result is the recomputed state (test "stages from the trainer's
    // own inputs"), so it is taken rather than computed a second time.
    stage.grad_norm = trace.grad_norm, stage.clip_scale = trace.clip_scale, stage.after = std::move(recomputed);
  } else {
    nl::BasicStepTrace<T>& in = decoded ? *decoded : trace;
    in.lr = r.lr;
    stage = run_stages(seen, in, nl::Pulse{r.pulse}, recomputed.context);
  }
  if (on(7)) {
    if (report->pulse.active != r.pulse) fail(failure(7, line, r.step, "the pulse (active levels) is not the conductor's"));
    cmp.scalar(7, "lr", r.lr, nl::learning_rate(r.opt, r.step));
  }
  if (on(6)) {
    cmp.scalar(6, "grad_norm", r.grad_norm, stage.grad_norm);
    if (r.clip_scale.has_value() != stage.clip_scale.has_value()) {
      fail(failure(6, line, r.step, r.clip_scale ? "clipped, but the norm is within the clip" : "not clipped, but the norm exceeds the clip"));
    } else if (r.clip_scale) {
      cmp.scalar(6, "clip_scale", static_cast<T>(*r.clip_scale), *stage.clip_scale);
    }
  }
  const bool adamw_on = on(8), memory_on = on(9);
  if (adamw_on && (r.after.counters.adam_tau != stage.after.adam.tau || r.after.counters.adam_tau_level != stage.after.adam.tau_level)) {
    fail(failure(8, line, r.step, "the AdamW step counts after the update differ"));
  }
  const std::vector<std::uint64_t> counts(stage.after.buffer_counts.begin(), stage.after.buffer_counts.end());
  if (memory_on && r.after.counters.error_buffer_counts != counts) {
    fail(failure(9, line, r.step, "the error-buffer counts after the step differ"));
  }
  auto state_rule = [](const std::string& name) {
    return name.starts_with("context/") || name.starts_with("error_buffer/") ? 9u : 8u;
  };
  const std::vector<TensorEntry> rec_after = encode_state(stage.after, false).tensors;
  cmp.tensors(r.after.tensors, rec_after, state_rule, [&](unsigned rule) { return rule == 8 ? adamw_on : memory_on; },
              [&, full_after = std::optional<StateSection>()](std::size_t i) mutable {
                if (!full_after) full_after = encode_state(stage.after, true);  // once, on a mismatch
                return widened_values(full_after->tensors[i]);
              });

  // Way (b), from the receipt's own numbers where it carries them (equal digests: equal values).
  nl::BasicTrainerState<T> stored_after;
  if (full && !same_digests(r.after.tensors, rec_after)) {
    auto a = decode_state<T>(r.after, r.cfg, r.opt);
    if (!a.ok()) return a.error().at_file(file).at_line(line);
    stored_after = std::move(*a);
  } else {
    stored_after = std::move(stage.after);
  }
  remember_first(r);
  prev_index = r.index, prev_step = r.step, prev_sha256 = common::sha256_hex(text), prev_after_digests = digests(r.after);
  if (opt.fp64 && opt.threads > 1) {
    carried = stored_after;  // the job, on its own thread, keeps a copy
    auto j = std::make_shared<const Fp64Job<T>>(Fp64Job<T>{std::move(r), std::move(before), std::move(ids), std::move(targets),
                                                           decoded ? std::move(*decoded) : std::move(trace), std::move(stored_after), line});
    job = [j] { return run_fp64(*j); };
    return {};
  }
  if (opt.fp64) {
    const bool per_entry = check_fp64(BasicFp64Case<T>{r, seen, ids, targets, decoded ? *decoded : trace, stored_after}, [this, line](Failure f) {
      f.line = line;
      fail(std::move(f));
    });
    normwise += per_entry ? 0 : 1;
  }
  carried = std::move(stored_after);
  return {};
}

StreamVerifier::StreamVerifier(VerifyOptions o) : impl_(std::make_unique<Impl>(std::move(o))) {}
StreamVerifier::StreamVerifier(StreamVerifier&&) noexcept = default;
StreamVerifier& StreamVerifier::operator=(StreamVerifier&&) noexcept = default;
StreamVerifier::~StreamVerifier() = default;

common::Status StreamVerifier::add(std::string_view line, const std::string& file, std::int64_t line_no) {
  return impl_->add(line, file, line_no);
}
std::uint64_t StreamVerifier::receipts() const { return impl_->receipts; }
const std::vector<Failure>& StreamVerifier::failures() const {
  impl_->drain();
  return impl_->failures;
}
std::uint64_t StreamVerifier::failure_count() const {
  impl_->drain();
  return impl_->failure_count;
}
const std::array<RuleTally, 10>& StreamVerifier::tally() const {
  impl_->drain();
  return impl_->tally;
}
std::uint64_t StreamVerifier::not_bitwise() const { return impl_->not_bitwise; }
std::uint64_t StreamVerifier::normwise_steps() const {
  impl_->drain();
  return impl_->normwise;
}
std::string StreamVerifier::foreign_blas() const {
  return impl_->first && impl_->first->blas != impl_->here_blas ? impl_->first->blas : std::string();
}
std::string StreamVerifier::local_blas() const { return impl_->here_blas; }
std::string StreamVerifier::kernel_device() const { return impl_->kernel_device; }

}  // namespace nl_audit
