#include "dist/single_process.hpp"

#include <cstdlib>

namespace dist {

common::Status SingleProcess::send(int to, std::span<const std::byte>) {
  return common::Error::invalid_argument("dist: send to rank " + std::to_string(to) + " in a run of one process");
}

common::Result<std::vector<std::byte>> SingleProcess::receive(int from) {
  return common::Error::invalid_argument("dist: receive from rank " + std::to_string(from) + " in a run of one process");
}

void SingleProcess::abort(int code) { std::_Exit(code); }

}  // namespace dist
