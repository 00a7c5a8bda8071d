#include "tape/tape_op.hpp"

#include <string>

#include "tape/tape_error.hpp"

namespace tape {

void SmallBufIds::throw_too_many(std::size_t n) {
  throw TapeError("CustomOp",
                  "at most " + std::to_string(kCapacity) + " buffer ids per list, got " + std::to_string(n), {});
}

}  // namespace tape
