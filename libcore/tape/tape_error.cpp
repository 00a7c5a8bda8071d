#include "tape/tape_error.hpp"

namespace tape {
namespace {

std::string render(const std::string& op, const std::string& problem, const std::vector<Shape>& shapes) {
  std::string s = op + ": " + problem;
  if (!shapes.empty()) {
    s += "; shapes";
    for (const Shape& sh : shapes) s += ' ' + sh.to_string();
  }
  return s;
}

}  // namespace

TapeError::TapeError(std::string op, std::string problem, std::vector<Shape> shapes)
    : std::runtime_error(render(op, problem, shapes)),
      op_(std::move(op)),
      problem_(std::move(problem)),
      shapes_(std::move(shapes)) {}

}  // namespace tape
