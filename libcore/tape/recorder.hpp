#pragma once
// Recorder: the few steps every traced op takes, with or without an active tape.
//
//   Tensor add(const Tensor& a, const Tensor& b) {
//     require_same_shape("Add", a, b);             // validate first: nothing allocated on error
//     Recorder rec("Add");
//     const BufId ia = rec.input(a), ib = rec.input(b);
//     NewBuffer out = rec.output(a.shape());        // tape arena when recording, heap otherwise
//     add_forward<float>(a.data(), b.data(), out.data);
//     rec.check_finite(out.data, {a.shape(), b.shape()});
//     rec.record(AddOp{ia, ib, out.tensor.id()});
//     return std::move(out.tensor);
//   }
#include <cassert>
#include <initializer_list>
#include <span>
#include <utility>

#include "tape/finite.hpp"
#include "tape/tape.hpp"

namespace tape {

class Recorder {
 public:
  explicit Recorder(const char* op) : op_(op), tape_(active_tape()) {}

  [[nodiscard]] bool recording() const { return tape_ != nullptr; }
  [[nodiscard]] Tape& tape() { return *tape_; }
  [[nodiscard]] const char* op() const { return op_; }
  // Whether any input seen so far carries a gradient (the output then does too).
  [[nodiscard]] bool needs_grad() const { return needs_grad_; }

  // The tape's id for an input (invalid when not recording). Throws TapeError for an empty
  // tensor or one from another tape.
  [[nodiscard]] BufId input(const Tensor& t) {
    if (t.empty()) [[unlikely]] throw_empty();
    if (tape_ == nullptr) return {};
    const BufId id = tape_->id_of(t, op_);
    needs_grad_ = needs_grad_ || tape_->requires_grad(id);
    return id;
  }
  // Uninitialised storage for the op's result.
  [[nodiscard]] NewBuffer output(const Shape& shape) {
    return tape_ != nullptr ? tape_->new_buffer(shape, needs_grad_) : heap_buffer(shape);
  }
  // A value kept for backward only (no gradient). Only while recording().
  [[nodiscard]] NewBuffer saved(const Shape& shape) {
    assert(tape_ != nullptr);
    return tape_->new_buffer(shape, false);
  }

  void check_finite(std::span<const float> out, std::initializer_list<Shape> input_shapes) const {
    if (!all_finite(out)) [[unlikely]] throw_non_finite(input_shapes);
  }
  template <typename Op>
  void record(Op&& op) {
    if (tape_ != nullptr) tape_->record(std::forward<Op>(op));
  }
  // Constructs the record in place from `args` (Tape::emplace).
  template <typename Op, typename... Args>
  void emplace(Args&&... args) {
    if (tape_ != nullptr) tape_->emplace<Op>(std::forward<Args>(args)...);
  }

 private:
  [[nodiscard]] static NewBuffer heap_buffer(const Shape& shape);
  [[noreturn]] void throw_empty() const;
  [[noreturn]] void throw_non_finite(std::initializer_list<Shape> input_shapes) const;

  const char* op_;
  Tape* tape_;
  bool needs_grad_ = false;
};

// Throws TapeError naming `op` and both shapes unless a and b have the same shape.
void require_same_shape(const char* op, const Tensor& a, const Tensor& b);

}  // namespace tape
