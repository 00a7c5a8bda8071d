#include "tape/shape.hpp"

#include <doctest/doctest.h>

#include "tape/tape_error.hpp"

using tape::Shape;

TEST_CASE("shape: numel, matrix view and text") {
  CHECK(Shape{}.numel() == 1);
  CHECK(Shape{}.to_string() == "[]");
  const Shape s{2, 3, 4};
  CHECK(s.rank() == 3);
  CHECK(s.numel() == 24);
  CHECK(s.rows() == 6);
  CHECK(s.cols() == 4);
  CHECK(s.to_string() == "[2,3,4]");
  CHECK(Shape{5}.rows() == 1);
  CHECK(Shape{5}.cols() == 5);
  CHECK(Shape{2, 3} == Shape{2, 3});
  CHECK_FALSE(Shape{2, 3} == Shape{3, 2});
  CHECK_FALSE(Shape{6} == Shape{6, 1});
}

TEST_CASE("shape: more than four dimensions is a TapeError") {
  CHECK_THROWS_WITH_AS((Shape{1, 2, 3, 4, 5}), "Shape: rank 5 exceeds the maximum of 4", tape::TapeError);
}
