#pragma once
// Collects text whose place in the output comes after something not yet known: the per-record
// entries of `bp verify multi`, which follow the overall verdict; the receipts of `bp import ...
// multi`, which all carry the digest of the whole bundle. The first `memory_bytes` (32 MiB) are
// kept in memory, the rest go to an anonymous temporary file (in $TMPDIR, else /tmp; created by
// open(), unlinked at once), so memory stays bounded whatever the text's length. Memory first:
// writing the 16.6 MB of receipts of a 1,000-step import to the file and reading them back cost
// 10% of its CPU time (the kernel's page-cache copies, on ext4 and tmpfs alike).
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace common {

class Spool {
 public:
  static constexpr std::size_t kMemoryBytes = std::size_t{32} << 20;
  explicit Spool(std::size_t memory_bytes = kMemoryBytes) : memory_limit_(memory_bytes) {}
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Opens the file ("<prefix>-XXXXXX", unlinked at once); the error text when it cannot.
  [[nodiscard]] std::optional<std::string> open(std::string_view prefix = "bp-verify");
  void append(std::string_view text);
  [[nodiscard]] bool empty() const { return bytes_ == 0; }
  // Flushes; true when a write to the file failed (e.g. its file system is full): the content is
  // incomplete.
  [[nodiscard]] bool failed();
  // Feeds the whole content to `sink` in chunks; false when reading back failed, the file could
  // not be written, or `sink` returned false.
  [[nodiscard]] bool replay(const std::function<bool(std::string_view)>& sink);
  // The same, each chunk writable: a sink that edits what it is given before passing it on needs
  // no copy of it.
  [[nodiscard]] bool replay_writable(const std::function<bool(std::span<char>)>& sink);
  // The file's descriptor, everything written to it, flushed and at offset 0, for reading it with
  // read(2) (no append after that); -1 when a write, the flush or the seek failed.
  [[nodiscard]] int reading_fd();
  // Drops what was written.
  void clear();

 private:
  // Memory in blocks, never moved once written (no copies as it grows); a chunk of replay each.
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
  // The bytes held in memory to the file, before anything more goes there (once).
  void spill();

  std::size_t memory_limit_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t in_memory_ = 0;  // the first bytes, in blocks_
  bool spilled_ = false;       // the file holds every byte since
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
  bool write_failed_ = false;
};

}  // namespace common
