#include "hybrid/trace/trace_file.hpp"

#include <optional>
#include <span>

#include "common/atomic_file.hpp"

namespace hybrid {

common::Result<TraceFile> TraceFile::open(common::FileSystem& fs, const std::string& path) {
  const common::Location at{path, 0, {}};
  const std::string dir = common::parent_dir(path);
  if (!fs.is_dir(dir)) return common::Error::io("the directory " + dir + " does not exist", at);
  auto resolved = fs.resolve_symlinks(path);
  if (!resolved.ok()) return resolved.error().for_file(path);
  if (*resolved != path) return common::Error::io("is a symbolic link; a trace is not written through one", at);
  switch (fs.node_kind(path)) {
    case common::NodeKind::directory: return common::Error::io("is a directory", at);
    case common::NodeKind::other: return common::Error::io("is a device, a FIFO or a socket, not a file to replace", at);
    case common::NodeKind::missing:
    case common::NodeKind::regular: break;
  }
  // No signal between the temporary's creation and its registration (as in write_file_atomic).
  std::optional<common::DeferredStopSignals> deferred(std::in_place);
  auto temp = fs.create_temp_beside(path);
  if (!temp.ok()) return temp.error().for_file(path);
  TraceFile f(fs, path, std::move(*temp));
  deferred.reset();
  if (common::Status s = f.write(kTraceHead); !s.ok()) return s.error();
  return f;
}

TraceFile::TraceFile(common::FileSystem& fs, std::string path, common::TempFile temp)
    : fs_(&fs), path_(std::move(path)), temp_(std::move(temp)), pending_(std::make_unique<common::PendingTempFile>(temp_.path)) {}

TraceFile::~TraceFile() { discard(); }

void TraceFile::discard() {
  if (!temp_.file) return;
  (void)temp_.file->close();
  (void)fs_->remove(temp_.path);
  pending_.reset();
  temp_.file.reset();
}

common::Status TraceFile::write(std::string_view text) {
  if (!temp_.file) return common::Error::io("the trace is already finished", common::Location{path_, 0, {}});
  const auto bytes = std::as_bytes(std::span(text.data(), text.size()));
  if (common::Status s = temp_.file->append(bytes); !s.ok()) {
    discard();
    return s.error().for_file(path_);
  }
  return {};
}

common::Status TraceFile::append(TraceEvents& events) {
  if (events.size() == 0) return {};
  const bool after = any_;
  any_ = true;
  return write(events.take_items(after));
}

common::Status TraceFile::finish() {
  if (common::Status s = write(kTraceTail); !s.ok()) return s;
  if (common::Status s = temp_.file->sync(); !s.ok()) {
    discard();
    return s.error().for_file(path_);
  }
  {
    // Renamed while still open (its lock marks it a live writer's) and unregistered in the same
    // breath, so the signal handler never unlinks a name that now holds the target.
    const common::DeferredStopSignals renaming;
    if (common::Status s = fs_->rename(temp_.path, path_); !s.ok()) {
      discard();
      return s.error().for_file(path_);
    }
    pending_.reset();
  }
  common::Status closed = temp_.file->close();
  temp_.file.reset();
  if (!closed.ok()) return closed.error().for_file(path_);
  // The rename is done; a failed directory fsync means durability is not guaranteed.
  if (common::Status s = fs_->sync_dir(common::parent_dir(path_)); !s.ok()) return s.error().for_file(path_);
  return {};
}

}  // namespace hybrid
