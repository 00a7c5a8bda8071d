#include "common/throttled_file_system.hpp"

#include <thread>

namespace common {
namespace {

class ThrottledWritableFile final : public WritableFile {
 public:
  ThrottledWritableFile(const ThrottledFileSystem& fs, std::unique_ptr<WritableFile> base) : fs_(fs), base_(std::move(base)) {}
  Status append(std::span<const std::byte> data) override {
    fs_.pause_for(data.size());
    return base_->append(data);
  }
  Status sync() override { return base_->sync(); }
  Status close() override { return base_->close(); }

 private:
  const ThrottledFileSystem& fs_;
  std::unique_ptr<WritableFile> base_;
};

}  // namespace

void ThrottledFileSystem::pause_for(std::size_t bytes) const {
  const auto us = static_cast<std::int64_t>(static_cast<double>(per_mib_.count()) * static_cast<double>(bytes) / 1048576.0);
  if (us > 0) std::this_thread::sleep_for(std::chrono::microseconds(us));
}

Result<std::unique_ptr<WritableFile>> ThrottledFileSystem::create(const std::string& path) {
  auto f = base_.create(path);
  if (!f) return f.error();
  return std::unique_ptr<WritableFile>(new ThrottledWritableFile(*this, std::move(f.value())));
}

Result<TempFile> ThrottledFileSystem::create_temp_beside(const std::string& target) {
  auto t = base_.create_temp_beside(target);
  if (!t) return t.error();
  t->file = std::unique_ptr<WritableFile>(new ThrottledWritableFile(*this, std::move(t->file)));
  return t;
}

Result<std::vector<std::byte>> ThrottledFileSystem::read(const std::string& path, std::size_t max_bytes) {
  auto r = base_.read(path, max_bytes);
  if (r) pause_for(r->size());
  return r;
}

Expected<std::string, ReadError> ThrottledFileSystem::read_file(const std::string& path, std::size_t max_bytes) {
  auto r = base_.read_file(path, max_bytes);
  if (r) pause_for(r->size());
  return r;
}

Status ThrottledFileSystem::read_exact(const std::string& path, std::span<std::byte> out) {
  Status s = base_.read_exact(path, out);
  if (s) pause_for(out.size());
  return s;
}

}  // namespace common
