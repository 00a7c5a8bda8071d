#pragma once
// TapeError: the one exception type of the tape library.
//
// Why an exception and not common::Result: traced ops are called in expression chains
// (`softmax(add(matmul(x, w), b))`), and every one of them can meet bad input (shape mismatch,
// a tensor from another tape, a non-finite value). Threading a Result through each call would
// bury the math. The tape therefore throws TapeError, and only TapeError, carrying the op name
// and the shapes involved; `try_with_tape` (tape.hpp) converts it to a common::Error at the
// boundary, so callers outside libcore/tape see errors as values. Nothing else is thrown on
// purpose (std::bad_alloc aside).
#include <stdexcept>
#include <string>
#include <vector>

#include "tape/shape.hpp"

namespace tape {

class TapeError : public std::runtime_error {
 public:
  // what(): "<op>: <problem>; shapes [2,3] [4,5]" (the shapes part only when shapes are given).
  TapeError(std::string op, std::string problem, std::vector<Shape> shapes);

  [[nodiscard]] const std::string& op() const { return op_; }
  [[nodiscard]] const std::string& problem() const { return problem_; }
  [[nodiscard]] const std::vector<Shape>& shapes() const { return shapes_; }

 private:
  std::string op_;
  std::string problem_;
  std::vector<Shape> shapes_;
};

// A value went NaN or Inf (an op's result, a tensor's data). Its own type so that a caller can
// tell a diverging computation from a wrong call without reading the message.
class NonFiniteError : public TapeError {
 public:
  using TapeError::TapeError;
};

// A context spill hook (context_spill.hpp) could not store or fetch a record's state (a full
// disk, a failed read): an I/O failure, not a wrong call, so try_with_tape reports it as io.
class SpillError : public TapeError {
 public:
  using TapeError::TapeError;
};

}  // namespace tape
