#include "hybrid/checkpoint_root/batched_sync.hpp"

namespace hybrid {
namespace {

// A file whose fsync is left to BatchedSyncFileSystem::flush.
class UnsyncedFile final : public common::WritableFile {
 public:
  explicit UnsyncedFile(std::unique_ptr<common::WritableFile> base) : base_(std::move(base)) {}
  common::Status append(std::span<const std::byte> data) override { return base_->append(data); }
  common::Status sync() override { return {}; }
  common::Status close() override { return base_->close(); }

 private:
  std::unique_ptr<common::WritableFile> base_;
};

}  // namespace

common::Result<std::unique_ptr<common::WritableFile>> BatchedSyncFileSystem::create(const std::string& path) {
  auto f = base_.create(path);
  if (!f) return f.error();
  return std::unique_ptr<common::WritableFile>(new UnsyncedFile(std::move(f.value())));
}

common::Result<common::TempFile> BatchedSyncFileSystem::create_temp_beside(const std::string& target) {
  auto t = base_.create_temp_beside(target);
  if (!t) return t.error();
  t->file = std::make_unique<UnsyncedFile>(std::move(t->file));
  return t;
}

}  // namespace hybrid
