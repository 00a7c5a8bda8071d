#pragma once
// same_key(k, key) == (k == key) for an object's keys, which are short and often alike but for
// their ends (w_h1_i1, w_h1_i2): the length, then the last and the first eight (or four) bytes in
// a load each, memcmp only for the middle of a key over 16 bytes. A call to memcmp per key
// compared was a tenth of the reconciler's rules' time; the schema's name tables and the
// document tokenizer's duplicate-key check compare keys the same way.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace common {

namespace detail {
// The last and the first sizeof(Word) bytes of a and b (n >= sizeof(Word)), a load each.
template <class Word>
[[nodiscard]] inline bool ends_equal(const char* a, const char* b, std::size_t n) noexcept {
  Word x = 0, y = 0;
  std::memcpy(&x, a + n - sizeof(Word), sizeof(Word));
  std::memcpy(&y, b + n - sizeof(Word), sizeof(Word));
  if (x != y) return false;
  std::memcpy(&x, a, sizeof(Word));
  std::memcpy(&y, b, sizeof(Word));
  return x == y;
}
}  // namespace detail

[[nodiscard]] inline bool same_key(std::string_view k, std::string_view key) noexcept {
  const std::size_t n = key.size();
  if (k.size() != n) return false;
  const char* a = k.data();
  const char* b = key.data();
  if (n >= 8) return detail::ends_equal<std::uint64_t>(a, b, n) && (n <= 16 || std::memcmp(a + 8, b + 8, n - 16) == 0);
  if (n >= 4) return detail::ends_equal<std::uint32_t>(a, b, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace common
