#pragma once
// atenia's cache root (the layout is hybrid's, root_layout.hpp): where it is by default, and the
// memory manager atenia's commands build over it.
#include <memory>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "common/temp_file_cleanup.hpp"
#include "hybrid/checkpoint_root/root_layout.hpp"
#include "hybrid/memory/hybrid_memory_manager.hpp"

namespace atenia::cli {

using hybrid::CacheRoot;

// atenia's own cache directory when none is named: $XDG_CACHE_HOME/atenia when that is an
// absolute path, else $HOME/.cache/atenia, else ./.atenia_cache (no HOME at all).
[[nodiscard]] std::string default_cache_dir();

// Creates the root (io error when it is a file or cannot be made).
[[nodiscard]] common::Status ensure_cache_root(const CacheRoot& root);

// A manager whose SSD tier lives in `ssd_dir`, with the root's persistent cache attached.
// `with_vram`: VRAM placements are real moves, to the GPU through CudaVramAdapter where one is
// present, else to an in-process stand-in (FakeVramAdapter).
[[nodiscard]] hybrid::HybridMemoryManager make_manager(const CacheRoot& root, const std::string& ssd_dir,
                                                       bool with_vram);

// A fresh directory under $TMPDIR, removed with its content on scope exit.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  // SIGTERM, SIGINT, SIGHUP: the signal handler removes the directory with everything in it,
  // as the destructor would have.
  std::optional<common::PendingTempFile> pending_;
};

}  // namespace atenia::cli
