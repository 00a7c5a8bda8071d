#pragma once
// APX 13.2: how a tier move fails. A move returns a common::Result / common::Status whose error
// kind says what went wrong:
//   io                the storage or the copy failed (a spill file, a VRAM allocation or copy)
//   unsupported       the backend is unavailable (no usable VRAM, or it lost the tensor)
//   invalid_argument  the move cannot be made (no backing data, a blob that does not decode,
//                     a length that does not match)
#include <string>

#include "common/error.hpp"
#include "common/result.hpp"

namespace hybrid {

// "<label>: <message>", the label the seed names each case with: io -> "Io", unsupported ->
// "BackendUnavailable", any other kind -> "Unsupported". Written into timelines, checkpoint
// fallbacks and error lines, so these bytes are part of atenia's output.
[[nodiscard]] std::string move_error_text(const common::Error& e);

}  // namespace hybrid
