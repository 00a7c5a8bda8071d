#include "common/atomic_file.hpp"

#include <unistd.h>

#include <atomic>

namespace common {

std::string parent_dir(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

namespace {

// Unique within the process and across processes (pid), so concurrent writers to the
// same directory never share a temporary.
std::string temp_name_for(const std::string& path) {
  static std::atomic<unsigned long> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
}

}  // namespace

Status write_file_atomic(FileSystem& fs, const std::string& path, std::span<const std::byte> data) {
  const std::string tmp = temp_name_for(path);
  auto file = fs.create(tmp);
  if (!file) return file.error().for_file(path);
  auto fail = [&](const Error& e) -> Status {
    (void)file.value()->close();
    (void)fs.remove(tmp);
    return e.for_file(path);
  };
  if (auto s = file.value()->append(data); !s) return fail(s.error());
  if (auto s = file.value()->sync(); !s) return fail(s.error());
  if (auto s = file.value()->close(); !s) return fail(s.error());
  if (auto s = fs.rename(tmp, path); !s) {
    (void)fs.remove(tmp);
    return s.error().for_file(path);
  }
  // The rename is done; a failed directory fsync means durability is not guaranteed.
  if (auto s = fs.sync_dir(parent_dir(path)); !s) return s.error().for_file(path);
  return {};
}

Status write_file_atomic(FileSystem& fs, const std::string& path, std::string_view text) {
  return write_file_atomic(
      fs, path, std::span<const std::byte>(reinterpret_cast<const std::byte*>(text.data()), text.size()));
}

}  // namespace common
