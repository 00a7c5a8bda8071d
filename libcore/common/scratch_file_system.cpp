#include "common/scratch_file_system.hpp"

namespace common {
namespace {

// The base's file with sync() a no-op; appends and close go through.
class ScratchFile final : public WritableFile {
 public:
  explicit ScratchFile(std::unique_ptr<WritableFile> base) : base_(std::move(base)) {}
  Status append(std::span<const std::byte> data) override { return base_->append(data); }
  Status sync() override { return {}; }
  Status close() override { return base_->close(); }

 private:
  std::unique_ptr<WritableFile> base_;
};

}  // namespace

Result<std::unique_ptr<WritableFile>> ScratchFileSystem::create(const std::string& path) {
  auto f = base_.create(path);
  if (!f.ok()) return f.error();
  return std::unique_ptr<WritableFile>(std::make_unique<ScratchFile>(std::move(*f)));
}

Result<TempFile> ScratchFileSystem::create_temp_beside(const std::string& target) {
  auto t = base_.create_temp_beside(target);
  if (!t.ok()) return t.error();
  return TempFile{std::make_unique<ScratchFile>(std::move(t->file)), std::move(t->path)};
}

}  // namespace common
