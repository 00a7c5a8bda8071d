#include "hybrid/streams/stream_types.hpp"

namespace hybrid {

const char* to_string(StreamKind kind) {
  switch (kind) {
    case StreamKind::Cpu: return "Cpu";
    case StreamKind::Gpu: return "Gpu";
    case StreamKind::SsdPrefetch: return "SsdPrefetch";
  }
  return "Unknown";
}

const char* to_string(TaskCategory category) {
  switch (category) {
    case TaskCategory::Compute: return "Compute";
    case TaskCategory::Transfer: return "Transfer";
    case TaskCategory::Io: return "Io";
  }
  return "Unknown";
}

}  // namespace hybrid
