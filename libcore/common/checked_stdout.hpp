#pragma once
// Standard output for the tools, checked: every write(2) to fd 1 goes through here, and the
// first failure (ENOSPC on /dev/full, EPIPE, EBADF on a closed descriptor) is remembered, so
// main can turn a lost write into one line and exit 2 with the system's reason, whatever the
// command did with the result.
#include <string_view>

namespace common {

// Writes all of `bytes` to fd 1 now (after what std::cout holds, when it is installed below);
// false when the write failed.
[[nodiscard]] bool write_stdout(std::string_view bytes);

// The errno of the first write to stdout that failed in this process; 0 when none did.
[[nodiscard]] int stdout_write_error();

// Writes all of `bytes` to fd 2 now; false when the write failed (nothing is remembered).
bool write_stderr(std::string_view bytes);

// Points std::cout at a checked 64 KiB buffer over fd 1. Call once, first thing in main.
// After a failure the rest of std::cout's output is dropped (the run has failed already), so
// a full disk cannot make a tool loop or grow.
void install_checked_stdout();

// Flushes std::cout; returns stdout_write_error().
[[nodiscard]] int flush_stdout();

// For a command whose effect is already committed (a checkpoint saved, a table written): it
// has reported the lost stdout as a warning, so the loss must not turn its exit status into a
// failure. Drops what std::cout still holds and forgets the error.
void forgive_stdout_error();

}  // namespace common
