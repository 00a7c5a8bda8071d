#pragma once
// Wengert tape: reverse-mode automatic differentiation by recording operations
// (seeds/wengert-tape.md; numerics in specs/nltrain-math.md §0 and §9).
//
// Usage
//
//   std::vector<std::vector<float>> grads = tape::with_tape([&](tape::Tape& t) {
//     tape::Tensor w = t.register_param(w_data, {d, d});    // snapshot: later edits to w_data
//     tape::Tensor x = tape::Tensor::from(x_data, {s, d});  //   do not reach the tape (CS-47)
//     tape::Tensor loss = tape::ops::cross_entropy(tape::ops::matmul(x, w), targets);
//     t.backward(loss.id());                                // seeds d_loss = 1
//     return t.extract_param_grads(std::array{w.id()});
//   });
//
// * with_tape(f) is the only way to record (CS-40). It makes a tape, makes it the active tape
//   of this thread, runs f(tape) and drops the tape. Nested with_tape on one thread is an error.
//   Outside with_tape the traced ops in tape/ops/ just compute: same kernels, bitwise-identical
//   results, nothing recorded.
// * Tensor (tensor.hpp) is the immutable value the ops take and return. Under a tape each op
//   allocates its result in the tape's arena, gives it a BufId and appends a TapeOp record;
//   no op writes into an existing buffer (CS-47) and every intermediate is kept (CS-42).
// * A Tensor made outside the tape enters it as a constant (no gradient). A Tensor carrying a
//   BufId of another tape is rejected.
// * Gradients: backward(loss) seeds d_loss = 1 and runs the records in reverse; every VJP adds
//   into the accumulators of its inputs (a buffer used twice receives both contributions).
//   Only buffers downstream of a parameter or a registered input carry a gradient, and VJPs
//   skip the others. backward runs once per tape.
// * Errors: traced ops and the Tape throw tape::TapeError (op name + shapes; see tape_error.hpp
//   for why exceptions here). try_with_tape turns one into a common::Error.
// * fp32 throughout. The ops check every result for NaN/Inf and name the op that made it.
// * Cost: recording appends one TapeOp (a variant; no heap allocation except for the ops that
//   carry index lists) and one buffer entry, and takes the result's storage from a chunked
//   arena. Backward allocates all accumulators at once (one zeroed block), matmul VJPs
//   accumulate straight into them with sgemm beta = 1, and VJPs skip inputs that carry no
//   gradient (constants), so a first layer costs one gemm in backward, not two.
//
// * Lifetime: a Tensor returned out of with_tape stays readable (it shares its arena chunk);
//   its BufId still names the finished tape, so no later tape accepts it as an input.
//
// Writing an op (recorder.hpp shows the pattern): an op family file in tape/ops/ holds the
// traced function (validate shapes, Recorder::input, compute into Recorder::output, record)
// and its VJP `void backward(const XOp&, Tape&)` side by side. Ops defined outside the core record a
// CustomOp; memory-rule blocks record an OpaqueOp (tape_op.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/result.hpp"
#include "tape/arena.hpp"
#include "tape/buf_id.hpp"
#include "tape/context_spill.hpp"
#include "tape/shape.hpp"
#include "tape/tape_error.hpp"
#include "tape/tape_op.hpp"
#include "tape/tensor.hpp"

namespace tape {

class Tape;

namespace detail {
// The recording tape of this thread; null outside with_tape.
inline constinit thread_local Tape* active = nullptr;
}  // namespace detail

[[nodiscard]] inline Tape* active_tape() noexcept { return detail::active; }

template <typename F>
auto with_tape(F&& f) -> std::decay_t<std::invoke_result_t<F&, Tape&>>;

class Tape {
 public:
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;
  ~Tape();

  // ── Leaves ────────────────────────────────────────────────────────────────
  // Copies `data` into the tape (a snapshot). Parameters and inputs both receive gradients;
  // extract_param_grads accepts only parameters. Throws on size mismatch or non-finite data.
  [[nodiscard]] Tensor register_param(std::span<const float> data, Shape shape);
  [[nodiscard]] Tensor register_input(std::span<const float> data, Shape shape);

  // ── Backward ──────────────────────────────────────────────────────────────
  // Seeds d_loss = 1; loss must hold exactly one element. Once per tape.
  void backward(BufId loss);
  // Seeds d_output = `seed` (same size as the output), for testing a block in isolation.
  void backward(BufId output, std::span<const float> seed);
  [[nodiscard]] bool backward_done() const { return backward_done_; }

  // The accumulated gradient (zeros for a buffer that carries none). Needs backward.
  [[nodiscard]] std::vector<float> get_grad(BufId id) const;
  [[nodiscard]] std::vector<std::vector<float>> extract_param_grads(std::span<const BufId> params) const;

  // ── Inspection ────────────────────────────────────────────────────────────
  [[nodiscard]] std::uint32_t serial() const { return serial_; }
  [[nodiscard]] const std::vector<TapeOp>& ops() const { return ops_; }
  [[nodiscard]] std::size_t num_bufs() const { return bufs_.size(); }
  [[nodiscard]] std::span<const float> data(BufId id) const { return {buf(id).data, buf(id).shape.numel()}; }
  [[nodiscard]] const Shape& shape(BufId id) const { return buf(id).shape; }
  [[nodiscard]] bool is_param(BufId id) const { return buf(id).is_param; }
  [[nodiscard]] bool requires_grad(BufId id) const { return buf(id).requires_grad; }
  [[nodiscard]] std::size_t arena_bytes() const { return arena_.bytes_reserved(); }

  // ── For op implementations ────────────────────────────────────────────────
  // This tape's id for an input tensor: its own BufId, or a new constant leaf for a tensor made
  // without a tape. Throws TapeError (naming `op`) for an empty tensor or one from another tape.
  // `op` is a C string so the hot path (a buffer of this tape) never measures it.
  [[nodiscard]] BufId id_of(const Tensor& t, const char* op) {
    if (t.id().tape_serial() == serial_) [[likely]] return t.id();
    return adopt(t, op);
  }
  // A fresh buffer for an op's output (or a saved value), uninitialised; the op fills `data`.
  // Inline (with the arena's and push_buf's fast paths): every recorded op makes one.
  [[nodiscard]] NewBuffer new_buffer(const Shape& shape, bool requires_grad) {
    if (backward_done_) [[unlikely]] throw_recorded_after_backward();
    FloatArena::Block block = arena_.allocate(shape.numel());
    const BufId id = push_buf(block.data.data(), shape, false, requires_grad);
    return {Tensor(std::move(block.owner), block.data.data(), shape, id), block.data};
  }
  // A constant buffer naming storage of an opaque record's context (OpaqueOp::context): nothing
  // is copied. Backward frees a context right after its record's VJP (nothing reads it again), so
  // afterwards such a buffer reads as empty. Throws after backward.
  [[nodiscard]] BufId alias(std::span<const float> data, const Shape& shape);
  // Appends a record of one of the core ops (ids were minted by this tape).
  template <typename Op>
  void record(Op&& op) {
    if (backward_done_) [[unlikely]] throw_recorded_after_backward();
    ops_.emplace_back(std::forward<Op>(op));
  }
  // Like record, but constructs the Op from `args` directly in the tape's storage: a large
  // record (CustomOp) is then neither value-initialised on the stack nor copied.
  template <typename Op, typename... Args>
  void emplace(Args&&... args) {
    if (backward_done_) [[unlikely]] throw_recorded_after_backward();
    ops_.emplace_back(std::in_place_type<Op>, std::forward<Args>(args)...);
  }
  // Validates the ids (this tape's), the function pointer and the counts, then appends.
  void record_custom(const CustomOp& op);
  void record_opaque(OpaqueOp op);

  // During backward: the upstream gradient of `id`, and the accumulator a VJP adds into. Both
  // are empty when the buffer carries no gradient: a VJP skips that output or input.
  [[nodiscard]] std::span<const float> grad(BufId id) const;
  [[nodiscard]] std::span<float> grad_accumulator(BufId id);

  // ── Context spill (context_spill.hpp) ─────────────────────────────────────
  // The hook told about every opaque record whose context has fields (null: none, the default).
  // It must outlive the tape's recording and backward.
  void set_context_spill(ContextSpill* spill) { spill_ = spill; }
  // For a hook: hands record op_index's context fields to `sink` as bytes (their floats in visit
  // order, native byte order), in pieces of at most piece_bytes (a piece never spans two fields),
  // freeing each field once all of it was handed over; the buffers aliasing them read empty until
  // put_context. Returns the number of pieces. Throws TapeError when the record has no such
  // context or it is already out; what `sink` throws leaves the context out for good.
  using ContextSink = std::function<void(std::span<const std::uint8_t>)>;
  std::size_t take_context(std::size_t op_index, std::size_t piece_bytes, const ContextSink& sink);
  // Gives the fields back: calls `fill` once per field, in visit order, with the field's new
  // storage as bytes, which it must fill entirely (with what take_context handed over: then the
  // VJP computes the same bits). Throws TapeError when the record's context is not out.
  using ContextFill = std::function<void(std::span<std::uint8_t>)>;
  void put_context(std::size_t op_index, const ContextFill& fill);

 private:
  template <typename F>
  friend auto with_tape(F&& f) -> std::decay_t<std::invoke_result_t<F&, Tape&>>;
  Tape();

  struct TapeBuf {
    const float* data;
    Shape shape;
    std::size_t grad_offset;  // into grads_; meaningful when requires_grad
    bool is_param;
    bool requires_grad;
    bool in_context = false;  // made by alias(): storage of an opaque record's context
  };
  // `op` names the caller in the error for an id of another tape.
  [[nodiscard]] const TapeBuf& buf(BufId id, const char* op = "Tape") const {
    if (id.tape_serial() != serial_ || id.index() >= bufs_.size()) [[unlikely]] throw_foreign(id, op);
    return bufs_[id.index()];
  }
  BufId push_buf(const float* data, const Shape& shape, bool is_param, bool requires_grad) {
    const std::size_t offset = grad_floats_;
    if (requires_grad) grad_floats_ += shape.numel();
    bufs_.push_back(TapeBuf{data, shape, offset, is_param, requires_grad});
    return BufId(serial_, static_cast<std::uint32_t>(bufs_.size() - 1));
  }
  BufId adopt(const Tensor& t, std::string_view op);
  Tensor register_leaf(const char* what, std::span<const float> data, Shape shape, bool is_param);
  void check_ids(std::string_view op, std::span<const BufId> ids) const;
  void release_context(OpaqueOp& op);
  [[nodiscard]] OpaqueOp& spillable(std::size_t op_index, const char* what);
  [[nodiscard]] static std::size_t context_bytes(const OpaqueOp& op);
  [[noreturn]] void throw_foreign(BufId id, const char* op) const;
  [[noreturn]] static void throw_recorded_after_backward();

  std::uint32_t serial_;
  FloatArena arena_;
  std::vector<TapeBuf> bufs_;
  std::vector<TapeOp> ops_;
  std::vector<std::shared_ptr<const float[]>> pinned_;  // constants entered by adopt()
  std::size_t grad_floats_ = 0;
  std::vector<float> grads_;  // all accumulators, allocated by backward
  bool backward_done_ = false;
  ContextSpill* spill_ = nullptr;
};

namespace detail {
// Makes `tape` the active tape of this thread for its lifetime; throws when one already is.
class ActiveTapeScope {
 public:
  explicit ActiveTapeScope(Tape& tape);
  ~ActiveTapeScope() { active = nullptr; }
  ActiveTapeScope(const ActiveTapeScope&) = delete;
  ActiveTapeScope& operator=(const ActiveTapeScope&) = delete;
};
}  // namespace detail

// The sole entry point for recording: runs f(tape) with a fresh tape active on this thread and
// returns f's result (by value: the tape is gone when with_tape returns).
template <typename F>
auto with_tape(F&& f) -> std::decay_t<std::invoke_result_t<F&, Tape&>> {
  Tape tape;
  detail::ActiveTapeScope scope(tape);
  return std::invoke(f, tape);
}

// What try_with_tape returns on failure: the common::Error ("tape: <what>", invalid_argument)
// and whether it was a NaN or Inf (NonFiniteError) rather than a wrong call.
class TapeFailure : public common::Error {
 public:
  TapeFailure(common::Error e, bool non_finite) : common::Error(std::move(e)), non_finite_(non_finite) {}
  [[nodiscard]] bool non_finite() const { return non_finite_; }

 private:
  bool non_finite_;
};

// with_tape, with a TapeError turned into a TapeFailure (a common::Error, so `return r.error();`
// into a common::Result keeps the message).
template <typename F>
auto try_with_tape(F&& f) -> common::Expected<std::decay_t<std::invoke_result_t<F&, Tape&>>, TapeFailure> {
  using R = std::decay_t<std::invoke_result_t<F&, Tape&>>;
  try {
    if constexpr (std::is_void_v<R>) {
      with_tape(std::forward<F>(f));
      return {};
    } else {
      return with_tape(std::forward<F>(f));
    }
  } catch (const NonFiniteError& e) {
    return TapeFailure(common::Error::invalid_argument(std::string("tape: ") + e.what()), true);
  } catch (const SpillError& e) {
    return TapeFailure(common::Error::io(e.problem()), false);
  } catch (const TapeError& e) {
    return TapeFailure(common::Error::invalid_argument(std::string("tape: ") + e.what()), false);
  }
}

}  // namespace tape
