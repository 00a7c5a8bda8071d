#include "hybrid/checkpoint_root/committed_read.hpp"

#include "common/file_system.hpp"
#include "hybrid/checkpoint/checkpoint_types.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"

namespace hybrid {

CommitMark commit_mark(const std::string& root) {
  CommitMark m;
  m.pending = SaveRollback::pending(root);
  const CacheRoot committed{m.pending ? SaveRollback::committed_dir(root) : root};
  auto text = common::read_text(common::real_file_system(), manifest_path(committed.checkpoint()), kMaxManifestBytes);
  if (text.ok()) m.manifest = std::move(*text);
  return m;
}

}  // namespace hybrid
