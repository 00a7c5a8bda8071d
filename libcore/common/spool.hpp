#pragma once
// An anonymous temporary file (in $TMPDIR, else /tmp; unlinked at once) that collects text whose
// place in the output comes after something not yet known: the per-record entries of `bp verify
// multi`, which follow the overall verdict; the receipts of `bp import ... multi`, which all carry
// the digest of the whole bundle. Memory stays one stdio buffer whatever the text's length.
#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace common {

class Spool {
 public:
  Spool() = default;
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
  // The file's descriptor, flushed and at offset 0, for reading it with read(2) (no append after
  // that); -1 when the flush or the seek failed.
  [[nodiscard]] int reading_fd();
  // Drops what was written.
  void clear();

 private:
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
  bool write_failed_ = false;
};

}  // namespace common
