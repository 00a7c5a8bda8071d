#include "common/atomic_file.hpp"

#include "common/temp_file_cleanup.hpp"

#include <optional>

namespace common {

std::string parent_dir(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

namespace {

// A device or a FIFO cannot be replaced by rename (as root that would replace /dev/full
// with a regular file): its bytes are written in place, without the atomicity guarantee.
Status write_in_place(FileSystem& fs, const std::string& path, const std::string& node,
                      const std::function<Status(WritableFile&)>& write) {
  auto file = fs.create(node);
  if (!file) return file.error().for_file(path);
  if (auto s = write(*file.value()); !s) {
    (void)file.value()->close();
    return s.error().for_file(path);
  }
  if (auto s = file.value()->close(); !s) return s.error().for_file(path);
  return {};
}

}  // namespace

Status write_file_atomic(FileSystem& fs, const std::string& path, std::span<const std::byte> data) {
  return write_file_atomic(fs, path, [data](WritableFile& file) { return file.append(data); });
}

Status write_file_atomic(FileSystem& fs, const std::string& path, const std::function<Status(WritableFile&)>& write) {
  // A symbolic link stays a link: its target is what gets replaced.
  auto resolved = fs.resolve_symlinks(path);
  if (!resolved) return resolved.error().for_file(path);
  const std::string& target = *resolved;
  switch (fs.node_kind(target)) {
    case NodeKind::directory: return Error::io("is a directory", Location{path, 0, {}});
    case NodeKind::other: return write_in_place(fs, path, target, write);
    case NodeKind::missing:
    case NodeKind::regular: break;
  }
  std::optional<DeferredStopSignals> deferred(std::in_place);
  auto temp = fs.create_temp_beside(target);
  if (!temp) return temp.error().for_file(path);
  PendingTempFile pending(temp->path);  // removed if SIGINT / SIGTERM / SIGHUP comes first
  deferred.reset();
  WritableFile& file = *temp->file;
  auto fail = [&](const Error& e) -> Status {
    (void)fs.remove(temp->path);
    (void)file.close();
    return e.for_file(path);
  };
  if (auto s = write(file); !s) return fail(s.error());
  if (auto s = file.sync(); !s) return fail(s.error());
  // Renamed while still open: the temporary's lock marks it as a live writer's until then.
  {
    const DeferredStopSignals renaming;
    if (auto s = fs.rename(temp->path, target); !s) return fail(s.error());
    pending.release();
  }
  if (auto s = file.close(); !s) return s.error().for_file(path);
  // The rename is done; a failed directory fsync means durability is not guaranteed.
  if (auto s = fs.sync_dir(parent_dir(target)); !s) return s.error().for_file(path);
  return {};
}

Status write_file_atomic(FileSystem& fs, const std::string& path, std::string_view text) {
  return write_file_atomic(
      fs, path, std::span<const std::byte>(reinterpret_cast<const std::byte*>(text.data()), text.size()));
}

}  // namespace common
