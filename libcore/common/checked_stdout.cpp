#include "common/checked_stdout.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <streambuf>

namespace common {
namespace {

int g_stdout_error = 0;

// The errno of a failed write(2), 0 when every byte went out.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno != 0 ? errno : EIO;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

bool write_all_stdout(std::string_view bytes) {
  const int err = write_all(STDOUT_FILENO, bytes);
  if (err != 0 && g_stdout_error == 0) g_stdout_error = err;
  return err == 0;
}

class CheckedStdoutBuf final : public std::streambuf {
 public:
  CheckedStdoutBuf() { setp(buf_, buf_ + sizeof buf_); }

 protected:
  int_type overflow(int_type c) override {
    const bool ok = drain();
    if (traits_type::eq_int_type(c, traits_type::eof())) return ok ? traits_type::not_eof(c) : c;
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return ok ? c : traits_type::eof();
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const std::string_view held(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    if (g_stdout_error == 0) write_all_stdout(held);
    setp(buf_, buf_ + sizeof buf_);
    return g_stdout_error == 0;
  }

  char buf_[1 << 16];
};

CheckedStdoutBuf* g_buf = nullptr;

}  // namespace

bool write_stdout(std::string_view bytes) {
  if (g_buf != nullptr) std::cout.flush();
  return write_all_stdout(bytes);
}

bool write_stderr(std::string_view bytes) { return write_all(STDERR_FILENO, bytes) == 0; }

int stdout_write_error() { return g_stdout_error; }

void install_checked_stdout() {
  if (g_buf == nullptr) g_buf = new CheckedStdoutBuf;  // never destroyed: std::cout may flush at exit
  std::cout.rdbuf(g_buf);
}

void forgive_stdout_error() {
  std::cout.flush();  // after a failure drain() drops the bytes instead of writing them
  std::cout.clear();
  g_stdout_error = 0;
}

int flush_stdout() {
  std::cout.flush();
  return g_stdout_error;
}

}  // namespace common
