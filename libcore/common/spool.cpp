#include "common/spool.hpp"

#include <unistd.h>

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
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) write_failed_ = true;
  bytes_ += text.size();
}

bool Spool::failed() {
  if (file_ != nullptr && !write_failed_ && std::fflush(file_) != 0) write_failed_ = true;
  return write_failed_;
}

int Spool::reading_fd() {
  if (file_ == nullptr || failed()) return -1;
  const int fd = ::fileno(file_);
  return ::lseek(fd, 0, SEEK_SET) == 0 ? fd : -1;
}

void Spool::clear() {
  if (file_ == nullptr) return;
  std::fflush(file_);
  if (::ftruncate(::fileno(file_), 0) != 0) write_failed_ = true;
  std::rewind(file_);
  bytes_ = 0;
}

bool Spool::replay(const std::function<bool(std::string_view)>& sink) {
  return replay_writable([&sink](std::span<char> chunk) { return sink(std::string_view(chunk.data(), chunk.size())); });
}

bool Spool::replay_writable(const std::function<bool(std::span<char>)>& sink) {
  if (bytes_ == 0) return !write_failed_;
  if (write_failed_ || std::fflush(file_) != 0) return false;
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
