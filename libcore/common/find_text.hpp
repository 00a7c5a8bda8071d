#pragma once
// A substring search for long texts: glibc's memmem (two-way, vectorised) instead of
// std::string_view::find, which looks for the needle's first byte with memchr and compares at
// every hit (a needle starting with '"' or ',' meets one in every few bytes of JSON: 2,000
// calls of each per imported receipt, a tenth of `bp verify multi`'s time on them).
#include <cstddef>
#include <string.h>  // memmem (a GNU extension; g++ defines _GNU_SOURCE)
#include <string_view>

namespace common {

// The first position of `needle` in `text` at or after `from`, or std::string_view::npos.
[[nodiscard]] inline std::size_t find_text(std::string_view text, std::string_view needle, std::size_t from = 0) {
  if (from > text.size()) return std::string_view::npos;
  if (needle.empty()) return from;
  const void* at = ::memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  return at == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char*>(at) - text.data());
}

}  // namespace common
