#pragma once
// BufId: names one buffer of one tape. It carries the tape's serial number as well as the
// buffer's index, so a BufId handed to a different tape is detected instead of silently
// indexing someone else's arena. Default-constructed: invalid (names no buffer).
#include <cstdint>
#include <limits>

namespace tape {

class BufId {
 public:
  constexpr BufId() = default;
  constexpr BufId(std::uint32_t tape_serial, std::uint32_t index) : tape_(tape_serial), index_(index) {}

  [[nodiscard]] constexpr bool valid() const { return tape_ != 0; }
  [[nodiscard]] constexpr std::uint32_t tape_serial() const { return tape_; }
  [[nodiscard]] constexpr std::uint32_t index() const { return index_; }

  friend constexpr bool operator==(BufId, BufId) = default;

 private:
  std::uint32_t tape_ = 0;  // 0: no tape (serials start at 1)
  std::uint32_t index_ = std::numeric_limits<std::uint32_t>::max();
};

}  // namespace tape
