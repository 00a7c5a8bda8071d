#pragma once
// Where two canonical JSON texts part: the JSON path of the value that holds the first differing
// byte, and that value's text in each, so "engine output diverges from receipt at byte 3627" can
// also say which field and what each side wrote.
#include <cstddef>
#include <string>
#include <string_view>

namespace verify {

struct Divergence {
  std::string path;    // "forward.h1.net", "updates[3].gradient"; empty at the root
  std::string ours;    // the value's text in `ours` (cut to 80 bytes), empty past its end
  std::string theirs;  // the same in `theirs`
};

// `at` is the first byte where `ours` and `theirs` differ (their common prefix's length); both are
// single JSON documents without whitespace between tokens (canonical receipts).
[[nodiscard]] Divergence locate_divergence(std::string_view ours, std::string_view theirs, std::size_t at);

}  // namespace verify
