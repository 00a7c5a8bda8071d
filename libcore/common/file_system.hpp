#pragma once
// All file I/O of the suite goes through FileSystem, so atomic writes, the SSD tier and
// checkpoints can be run against a fault-injecting version (FaultInjectingFileSystem).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace common {

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status append(std::span<const std::byte> data) = 0;
  virtual Status sync() = 0;   // fsync: data and metadata reach the disk
  virtual Status close() = 0;  // idempotent
};

// What a path names, following symlinks.
enum class NodeKind { missing, regular, directory, other };  // other: a device, a FIFO, a socket

// Why a whole-file read failed (FileSystem::read_file).
enum class ReadFailure : std::uint8_t { not_found, is_directory, too_large, permission_denied, unreadable };

struct ReadError {
  ReadFailure reason;
  Error error;  // an io error naming the path, in the system's words
};

// A temporary file created for an atomic replacement (see atomic_file.hpp).
struct TempFile {
  std::unique_ptr<WritableFile> file;
  std::string path;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // Creates or truncates `path` for writing.
  virtual Result<std::unique_ptr<WritableFile>> create(const std::string& path) = 0;
  virtual Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) = 0;
  // Reads a whole input file as text with one open: a failure carries its typed reason (not
  // found, a directory, too large, permission denied, unreadable), taken from that open and
  // its fstat rather than from checks made before it. The default goes through read() and
  // reports every failure as unreadable.
  virtual Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes);
  virtual Status rename(const std::string& from, const std::string& to) = 0;
  virtual Status sync_dir(const std::string& dir) = 0;
  // Flushes every write of the file system that holds `dir` (syncfs(2)): one call that makes
  // many files written without their own fsync durable at once, before a commit point.
  virtual Status sync_file_system(const std::string& dir) = 0;
  virtual Status remove(const std::string& path) = 0;  // missing file is not an error
  virtual Status create_dirs(const std::string& dir) = 0;
  virtual bool exists(const std::string& path) = 0;
  virtual bool is_dir(const std::string& path) = 0;
  virtual Result<std::vector<std::string>> list_dir(const std::string& dir) = 0;  // sorted names
  virtual Result<std::uint64_t> file_size(const std::string& path) = 0;
  [[nodiscard]] virtual NodeKind node_kind(const std::string& path) = 0;
  // `path` with its last component followed while it is a symbolic link (a relative link is
  // read against the link's directory); a path that is not a link comes back unchanged.
  virtual Result<std::string> resolve_symlinks(const std::string& path) = 0;
  // Creates a fresh temporary file beside `target` for an atomic replacement of it, named
  // "<target>.atomic-tmp.<k>". The file stays locked until it is closed; one found unlocked
  // under such a name was left by a writer that died (SIGKILL) and is removed here, so a
  // killed write leaves nothing behind after the next write to the same target.
  virtual Result<TempFile> create_temp_beside(const std::string& target) = 0;
  // Reads the whole file into `out`, which must be exactly the file's size (io error otherwise).
  // Lets large reads (spilled tensors) land in the caller's buffer without a copy. The default
  // goes through read(); the POSIX version reads straight into `out`.
  virtual Status read_exact(const std::string& path, std::span<std::byte> out);
};

// The process-wide POSIX implementation (stateless, safe to share).
FileSystem& real_file_system();

// Wraps another FileSystem and fails the Nth mutating operation (create, create_temp_beside, append, sync,
// rename, sync_dir, sync_file_system, remove, create_dirs), counting from 1. An `append` that fails writes
// half of its bytes first, as a real short write would. 0 disables injection.
class FaultInjectingFileSystem final : public FileSystem {
 public:
  explicit FaultInjectingFileSystem(FileSystem& base) : base_(base) {}
  void fail_at(std::uint64_t nth) { fail_at_ = nth; count_ = 0; }
  [[nodiscard]] std::uint64_t operations() const { return count_; }
  [[nodiscard]] bool fired() const { return fired_; }

  Result<std::unique_ptr<WritableFile>> create(const std::string& path) override;
  Result<std::vector<std::byte>> read(const std::string& path, std::size_t max_bytes) override;
  Expected<std::string, ReadError> read_file(const std::string& path, std::size_t max_bytes) override {
    return base_.read_file(path, max_bytes);
  }
  Status rename(const std::string& from, const std::string& to) override;
  Status sync_dir(const std::string& dir) override;
  Status sync_file_system(const std::string& dir) override;
  Status remove(const std::string& path) override;
  Status create_dirs(const std::string& dir) override;
  bool exists(const std::string& path) override { return base_.exists(path); }
  bool is_dir(const std::string& path) override { return base_.is_dir(path); }
  Result<std::vector<std::string>> list_dir(const std::string& dir) override { return base_.list_dir(dir); }
  Result<std::uint64_t> file_size(const std::string& path) override { return base_.file_size(path); }
  NodeKind node_kind(const std::string& path) override { return base_.node_kind(path); }
  Result<std::string> resolve_symlinks(const std::string& path) override { return base_.resolve_symlinks(path); }
  Result<TempFile> create_temp_beside(const std::string& target) override;  // counts as a create
  Status read_exact(const std::string& path, std::span<std::byte> out) override { return base_.read_exact(path, out); }

  // True when this operation is the one to fail (advances the counter).
  bool should_fail();

 private:
  FileSystem& base_;
  std::uint64_t fail_at_ = 0;
  std::uint64_t count_ = 0;
  bool fired_ = false;
};

// Convenience: read a whole file as text through `fs` (read_file), refusing files above max_bytes.
Result<std::string> read_text(FileSystem& fs, const std::string& path, std::size_t max_bytes);

}  // namespace common
