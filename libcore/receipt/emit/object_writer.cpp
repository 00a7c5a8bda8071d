#include "receipt/emit/object_writer.hpp"

#include <algorithm>

#include "common/json_input.hpp"

namespace receipt::emit {

common::Error ObjectWriter::error(std::string message, std::string_view child) const {
  std::string pointer;
  // Appends, not "/" + t: GCC 12 at -O2 reports a false -Wrestrict on the temporary.
  for (std::size_t i = 0; i < std::min(depth_, kMaxDepth); ++i) {
    const Token& t = tokens_[i];
    pointer += '/';
    pointer += t.index_plus_one ? std::to_string(t.index_plus_one - 1) : common::json_pointer_token(t.key);
  }
  if (!child.empty()) {
    pointer += '/';
    pointer += common::json_pointer_token(child);
  }
  return common::Error::malformed(std::move(message), {"", 0, pointer});
}

}  // namespace receipt::emit
