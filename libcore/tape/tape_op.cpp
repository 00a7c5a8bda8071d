#include "tape/tape_op.hpp"

#include <string>

#include "tape/tape_error.hpp"

namespace tape {

SmallBufIds::SmallBufIds(std::initializer_list<BufId> ids) {
  if (ids.size() > kCapacity) {
    throw TapeError("CustomOp", "at most " + std::to_string(kCapacity) + " buffer ids per list, got " +
                                    std::to_string(ids.size()),
                    {});
  }
  for (BufId id : ids) ids_[count_++] = id;
}

}  // namespace tape
