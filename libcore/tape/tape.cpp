#include "tape/tape.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "tape/finite.hpp"
#include "tape/float_pool.hpp"

namespace tape {
namespace {

std::atomic<std::uint32_t> g_next_serial{1};

// Serial 0 means "no tape" in a BufId, so a wrap-around skips it.
std::uint32_t next_serial() {
  std::uint32_t s = g_next_serial.fetch_add(1, std::memory_order_relaxed);
  while (s == 0) s = g_next_serial.fetch_add(1, std::memory_order_relaxed);
  return s;
}

// Enough room that small models record without regrowing.
constexpr std::size_t kReserveOps = 1024;

std::string id_text(BufId id) {
  return "BufId{tape " + std::to_string(id.tape_serial()) + ", index " + std::to_string(id.index()) + "}";
}

}  // namespace

namespace detail {
ActiveTapeScope::ActiveTapeScope(Tape& tape) {
  if (active != nullptr) {
    throw TapeError("with_tape", "a tape is already active on this thread (one tape per thread)", {});
  }
  active = &tape;
}
}  // namespace detail

Tape::Tape() : serial_(next_serial()) {
  ops_.reserve(kReserveOps);
  bufs_.reserve(2 * kReserveOps);
}

// The accumulators go back to this thread's pool for the next step's backward.
Tape::~Tape() { FloatPool::give_local(std::move(grads_)); }

BufId Tape::alias(std::span<const float> data, const Shape& shape) {
  if (backward_done_) throw_recorded_after_backward();
  const BufId id = push_buf(data.data(), shape, false, false);
  bufs_.back().in_context = true;
  return id;
}

void Tape::release_context(OpaqueOp& op) {
  for (BufId id : op.saved) {
    TapeBuf& b = bufs_[id.index()];
    if (b.in_context) b.data = nullptr, b.shape = Shape{0};
  }
  op.context.reset();
}

Tensor Tape::register_leaf(const char* what, std::span<const float> data, Shape shape, bool is_param) {
  if (data.size() != shape.numel()) {
    throw TapeError(what, "data holds " + std::to_string(data.size()) + " values, shape needs " +
                              std::to_string(shape.numel()),
                    {shape});
  }
  if (!all_finite(data)) throw NonFiniteError(what, "data contains NaN or Inf", {shape});
  NewBuffer b = new_buffer(shape, true);
  std::copy(data.begin(), data.end(), b.data.begin());  // the snapshot (CS-47)
  bufs_[b.tensor.id().index()].is_param = is_param;
  return std::move(b.tensor);
}

Tensor Tape::register_param(std::span<const float> data, Shape shape) {
  return register_leaf("register_param", data, shape, true);
}

Tensor Tape::register_input(std::span<const float> data, Shape shape) {
  return register_leaf("register_input", data, shape, false);
}

BufId Tape::adopt(const Tensor& t, std::string_view op) {
  if (t.id().valid()) {
    throw TapeError(std::string(op),
                    "input " + id_text(t.id()) + " belongs to another tape (this is tape " +
                        std::to_string(serial_) + ")",
                    {t.shape()});
  }
  if (t.empty()) throw TapeError(std::string(op), "input tensor is empty (default-constructed)", {});
  if (backward_done_) throw_recorded_after_backward();
  // The tensor's storage is immutable, so sharing it is as good as a snapshot.
  pinned_.push_back(t.owner_);
  return push_buf(t.data().data(), t.shape(), false, false);
}

void Tape::check_ids(std::string_view op, std::span<const BufId> ids) const {
  for (BufId id : ids) {
    if (id.tape_serial() != serial_ || id.index() >= bufs_.size()) {
      throw TapeError(std::string(op), id_text(id) + " is not a buffer of tape " + std::to_string(serial_), {});
    }
  }
}

void Tape::record_custom(const CustomOp& op) {
  const std::string name = op.name != nullptr && op.name[0] != '\0' ? op.name : "CustomOp";
  if (op.backward == nullptr) throw TapeError(name, "custom op recorded without a backward function", {});
  check_ids(name, op.inputs.span());
  check_ids(name, op.outputs.span());
  check_ids(name, op.saved.span());
  record(op);
}

void Tape::record_opaque(OpaqueOp op) {
  const std::string name = "Opaque(" + std::string(opaque::to_string(op.key)) + ")";
  if (op.backward == nullptr) throw TapeError(name, "no backward function registered for this key", {});
  if (op.outputs.empty()) throw TapeError(name, "opaque block recorded without outputs", {});
  if (op.context != nullptr && op.context_backward == nullptr) {
    throw TapeError(name, "opaque block recorded with a context but no in-place backward function", {});
  }
  check_ids(name, op.inputs);
  check_ids(name, op.outputs);
  check_ids(name, op.saved);
  const bool spillable = spill_ != nullptr && op.context != nullptr && op.context_fields != nullptr;
  const std::size_t bytes = spillable ? context_bytes(op) : 0;
  record(std::move(op));
  if (spillable) spill_->recorded(*this, {ops_.size() - 1, bytes});
}

std::span<const float> Tape::grad(BufId id) const {
  const TapeBuf& b = buf(id);
  if (!b.requires_grad) return {};
  return {grads_.data() + b.grad_offset, b.shape.numel()};
}

std::span<float> Tape::grad_accumulator(BufId id) {
  const TapeBuf& b = buf(id);
  if (!b.requires_grad) return {};
  return {grads_.data() + b.grad_offset, b.shape.numel()};
}

std::vector<float> Tape::get_grad(BufId id) const {
  const TapeBuf& b = buf(id, "get_grad");
  if (!backward_done_) throw TapeError("get_grad", "backward has not run on this tape", {b.shape});
  if (!b.requires_grad) return std::vector<float>(b.shape.numel(), 0.0f);
  const float* g = grads_.data() + b.grad_offset;
  return {g, g + b.shape.numel()};
}

std::vector<std::vector<float>> Tape::extract_param_grads(std::span<const BufId> params) const {
  std::vector<std::vector<float>> out;
  out.reserve(params.size());
  for (BufId id : params) {
    if (!buf(id, "extract_param_grads").is_param) {
      throw TapeError("extract_param_grads", id_text(id) + " is not a registered parameter", {buf(id).shape});
    }
    out.push_back(get_grad(id));
  }
  return out;
}

void Tape::throw_foreign(BufId id, const char* op) const {
  if (id.tape_serial() != serial_) {
    throw TapeError(op, id_text(id) + " belongs to another tape (this is tape " + std::to_string(serial_) + ")", {});
  }
  throw TapeError(op, id_text(id) + " is out of range (" + std::to_string(bufs_.size()) + " buffers)", {});
}

void Tape::throw_recorded_after_backward() {
  throw TapeError("Tape", "op recorded after backward (a tape runs forward, then backward once)", {});
}

}  // namespace tape
