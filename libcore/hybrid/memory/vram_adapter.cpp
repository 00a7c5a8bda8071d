#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid {

MoveResult<void> NullVramAdapter::upload(std::string_view, std::span<const std::uint8_t>) {
  return MoveError::backend_unavailable(kVramAdapterNotAvailable);
}
MoveResult<Bytes> NullVramAdapter::download(std::string_view) {
  return MoveError::backend_unavailable(kVramAdapterNotAvailable);
}
MoveResult<void> NullVramAdapter::free(std::string_view) {
  return MoveError::backend_unavailable(kVramAdapterNotAvailable);
}

}  // namespace hybrid
