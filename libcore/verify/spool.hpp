#pragma once
// An anonymous temporary file (in $TMPDIR, else /tmp; unlinked at once) that collects report text
// whose place in the output comes after something not yet known, e.g. the per-record entries of
// `bp verify multi`, which follow the overall verdict. Memory stays one stdio buffer. The library
// writes nothing to it: a MultiObserver (multi_run.hpp) that renders records keeps its text here.
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace verify {

class Spool {
 public:
  Spool() = default;
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Opens the file; the error text when it cannot.
  [[nodiscard]] std::optional<std::string> open();
  void append(std::string_view text);
  [[nodiscard]] bool empty() const { return bytes_ == 0; }
  // Flushes; true when a write to the file failed (e.g. its file system is full): the content is
  // incomplete.
  [[nodiscard]] bool failed();
  // Feeds the whole content to `sink` in chunks; false when reading back failed, the file could
  // not be written, or `sink` returned false.
  [[nodiscard]] bool replay(const std::function<bool(std::string_view)>& sink);
  // Drops what was written.
  void clear();

 private:
  std::FILE* file_ = nullptr;
  std::size_t bytes_ = 0;
  bool write_failed_ = false;
};

}  // namespace verify
