#pragma once
// Why a training step failed, as a type: a caller stops a diverging run (a NaN or Inf in the
// loss or a gradient) differently from a wrong call (a chunk, context or state that does not
// fit), and must not tell them apart by searching the message.
#include <utility>

#include "common/error.hpp"

namespace nl {

enum class StepFailure : unsigned char {
  non_finite,  // the loss, a tape value, a gradient or an error buffer went NaN or Inf
  invalid,     // the inputs did not fit the model (never happens for a valid trainer and chunk)
  io,          // a memory budget could not move the step's saved state to disk or back
};

// A common::Error with its StepFailure; `return e;` into a common::Result keeps the message.
class StepError : public common::Error {
 public:
  StepError(common::Error e, StepFailure kind) : common::Error(std::move(e)), kind_(kind) {}
  [[nodiscard]] StepFailure kind() const { return kind_; }
  [[nodiscard]] bool non_finite() const { return kind_ == StepFailure::non_finite; }

 private:
  StepFailure kind_;
};

}  // namespace nl
