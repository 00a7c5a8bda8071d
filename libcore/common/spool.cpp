#include "common/spool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace common {

Spool::~Spool() {
  if (file_ != nullptr) std::fclose(file_);
}

std::optional<std::string> Spool::open(std::string_view prefix) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/" + std::string(prefix) + "-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return "could not create a temporary file in " + path.substr(0, path.rfind('/')) + ": " + std::strerror(errno);
  ::unlink(name.data());
  file_ = ::fdopen(fd, "w+");
  if (file_ == nullptr) {
    ::close(fd);
    return std::string("could not open a temporary file: ") + std::strerror(errno);
  }
  return std::nullopt;
}

void Spool::append(std::string_view text) {
  if (text.empty() || write_failed_) return;
  if (!spilled_ && in_memory_ + text.size() <= memory_limit_) {
    bytes_ += text.size();
    while (!text.empty()) {
      const std::size_t used = in_memory_ % kBlockBytes;
      if (used == 0) blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
      const std::size_t n = std::min(text.size(), kBlockBytes - used);
      std::memcpy(blocks_.back().get() + used, text.data(), n);
      in_memory_ += n;
      text.remove_prefix(n);
    }
    return;
  }
  spill();
  if (file_ == nullptr || std::fwrite(text.data(), 1, text.size(), file_) != text.size()) write_failed_ = true;
  bytes_ += text.size();
}

void Spool::spill() {
  if (spilled_) return;
  spilled_ = true;
  for (std::size_t at = 0; at < in_memory_; at += kBlockBytes) {
    const std::size_t n = std::min(kBlockBytes, in_memory_ - at);
    if (file_ == nullptr || std::fwrite(blocks_[at / kBlockBytes].get(), 1, n, file_) != n) {
      write_failed_ = true;
      break;
    }
  }
  blocks_.clear();
  in_memory_ = 0;
}

bool Spool::failed() {
  if (file_ != nullptr && !write_failed_ && std::fflush(file_) != 0) write_failed_ = true;
  return write_failed_;
}

int Spool::reading_fd() {
  spill();
  if (file_ == nullptr || failed()) return -1;
  const int fd = ::fileno(file_);
  return ::lseek(fd, 0, SEEK_SET) == 0 ? fd : -1;
}

void Spool::clear() {
  blocks_.clear();
  in_memory_ = 0;
  spilled_ = false;
  bytes_ = 0;
  if (file_ == nullptr) return;
  std::fflush(file_);
  if (::ftruncate(::fileno(file_), 0) != 0) write_failed_ = true;
  std::rewind(file_);
}

bool Spool::replay(const std::function<bool(std::string_view)>& sink) {
  return replay_writable([&sink](std::span<char> chunk) { return sink(std::string_view(chunk.data(), chunk.size())); });
}

bool Spool::replay_writable(const std::function<bool(std::span<char>)>& sink) {
  if (bytes_ == 0) return !write_failed_;
  if (write_failed_) return false;
  for (std::size_t at = 0; at < in_memory_; at += kBlockBytes) {
    if (!sink(std::span<char>(blocks_[at / kBlockBytes].get(), std::min(kBlockBytes, in_memory_ - at)))) return false;
  }
  if (!spilled_) return true;
  if (std::fflush(file_) != 0) return false;
  std::rewind(file_);
  std::vector<char> chunk(1 << 16);
  std::size_t left = bytes_;
  while (left > 0) {
    const std::size_t n = std::fread(chunk.data(), 1, std::min(chunk.size(), left), file_);
    if (n == 0) return false;
    if (!sink(std::span<char>(chunk.data(), n))) return false;
    left -= n;
  }
  return true;
}

}  // namespace common
