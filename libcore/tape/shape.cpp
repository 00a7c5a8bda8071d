#include "tape/shape.hpp"

#include "tape/tape_error.hpp"

namespace tape {

Shape::Shape(std::initializer_list<std::size_t> dims) {
  if (dims.size() > kMaxRank) {
    throw TapeError("Shape", "rank " + std::to_string(dims.size()) + " exceeds the maximum of 4", {});
  }
  for (std::size_t d : dims) {
    dims_[rank_++] = d;
    numel_ *= d;
  }
}

std::string Shape::to_string() const {
  std::string s = "[";
  for (std::size_t i = 0; i < rank_; ++i) {
    if (i) s += ',';
    s += std::to_string(dims_[i]);
  }
  s += ']';
  return s;
}

}  // namespace tape
