#pragma once
// The on-disk layout of a checkpoint root (atenia's cache root, nltrain's run directory):
//   <root>/blobs       PersistentHybridCache (tensor/, gradient/, kernel_meta/)
//   <root>/ssd         the SSD tier's spill files (atenia simulate / place; never in a checkpoint)
//   <root>/checkpoint  checkpoint.meta, and tensor_files.json beside it
// Every path below a root is reached from it without following links (dir_fd.hpp).
#include <string>

namespace hybrid {

struct CacheRoot {
  std::string root;
  [[nodiscard]] std::string blobs() const { return root + "/blobs"; }
  [[nodiscard]] std::string ssd() const { return root + "/ssd"; }
  [[nodiscard]] std::string checkpoint() const { return root + "/checkpoint"; }
};

}  // namespace hybrid
