#include "cache_root.hpp"

#include <stdlib.h>

#include <filesystem>

#include "gpu/cuda_vram.hpp"

namespace atenia::cli {

std::string default_cache_dir() {
  const char* xdg = ::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/atenia";
  const char* home = ::getenv("HOME");
  if (home != nullptr && home[0] == '/') return std::string(home) + "/.cache/atenia";
  return ".atenia_cache";
}

common::Status ensure_cache_root(const CacheRoot& root) {
  auto& fs = common::real_file_system();
  if (fs.exists(root.root) && !fs.is_dir(root.root)) {
    return common::Error::io("cache root exists and is not a directory", common::Location{root.root, 0, {}});
  }
  return fs.create_dirs(root.root);
}

hybrid::HybridMemoryManager make_manager(const CacheRoot& root, const std::string& ssd_dir, bool with_vram) {
  std::unique_ptr<hybrid::VramAdapter> vram;
  if (with_vram) vram = gpu::detect_vram_adapter();  // CUDA where a GPU is present, else the in-process fake
  else vram = std::make_unique<hybrid::NullVramAdapter>();
  hybrid::HybridMemoryManager mem(ssd_dir, std::move(vram));
  mem.attach_persistent_cache(hybrid::PersistentHybridCache(root.blobs()));
  return mem;
}

ScratchDir::ScratchDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "atenia-XXXXXX").string();
  const common::DeferredStopSignals hold;  // never on disk unregistered
  if (::mkdtemp(tmpl.data()) != nullptr) {
    path_ = tmpl;
    pending_.emplace(path_, common::PendingTempFile::Kind::directory_tree);
  } else {
    path_ = std::filesystem::temp_directory_path().string();
  }
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (path_.find("atenia-") != std::string::npos) std::filesystem::remove_all(path_, ec);
}

}  // namespace atenia::cli
