#include "checked_stdout.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <streambuf>

namespace atenia::cli {
namespace {

class CheckedStdoutBuf final : public std::streambuf {
 public:
  CheckedStdoutBuf() { setp(buf_, buf_ + sizeof buf_); }
  [[nodiscard]] int error() const { return error_; }

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
  // Writes the buffered bytes; after a failure the rest of the output is dropped (the run
  // has failed already), so a full disk cannot make atenia loop or grow.
  bool drain() {
    const char* p = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0 && error_ == 0) {
      const ssize_t n = ::write(STDOUT_FILENO, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno != 0 ? errno : EIO;
        break;
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    setp(buf_, buf_ + sizeof buf_);
    return error_ == 0;
  }

  char buf_[1 << 16];
  int error_ = 0;
};

CheckedStdoutBuf& stdout_buf() {
  static auto* buf = new CheckedStdoutBuf;  // never destroyed: std::cout may flush at exit
  return *buf;
}

}  // namespace

void install_checked_stdout() { std::cout.rdbuf(&stdout_buf()); }

int flush_stdout() {
  std::cout.flush();
  return stdout_buf().error();
}

}  // namespace atenia::cli
