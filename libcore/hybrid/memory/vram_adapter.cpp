#include "hybrid/memory/vram_adapter.hpp"

namespace hybrid {

common::Status NullVramAdapter::upload(std::string_view, std::span<const std::uint8_t>) {
  return common::Error::unsupported(kVramAdapterNotAvailable);
}
common::Result<Bytes> NullVramAdapter::download(std::string_view) {
  return common::Error::unsupported(kVramAdapterNotAvailable);
}
common::Status NullVramAdapter::free(std::string_view) {
  return common::Error::unsupported(kVramAdapterNotAvailable);
}

}  // namespace hybrid
