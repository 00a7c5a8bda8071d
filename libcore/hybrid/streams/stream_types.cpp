#include "hybrid/streams/stream_types.hpp"

namespace hybrid {

const char* to_string(StreamKind kind) {
  switch (kind) {
    case StreamKind::cpu: return "Cpu";
    case StreamKind::gpu: return "Gpu";
    case StreamKind::ssd_prefetch: return "SsdPrefetch";
  }
  return "Unknown";
}

const char* to_string(TaskCategory category) {
  switch (category) {
    case TaskCategory::compute: return "Compute";
    case TaskCategory::transfer: return "Transfer";
    case TaskCategory::io: return "Io";
  }
  return "Unknown";
}

}  // namespace hybrid
