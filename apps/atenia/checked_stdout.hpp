#pragma once
// atenia's standard output: std::cout writes through a buffer that goes to fd 1 with write(2)
// and remembers the first failure (ENOSPC on /dev/full, EBADF on a closed descriptor), so
// main can turn a lost write into one line and exit 2 with the system's reason.
namespace atenia::cli {

// Points std::cout at the checked buffer. Call once, first thing in main.
void install_checked_stdout();

// Flushes std::cout; returns the errno of the first write to stdout that failed, 0 if none.
[[nodiscard]] int flush_stdout();

}  // namespace atenia::cli
