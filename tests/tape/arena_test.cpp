#include "tape/arena.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>

using tape::FloatArena;

TEST_CASE("arena: blocks are 32-byte aligned, disjoint, and outlive the arena through their owner") {
  std::shared_ptr<const float[]> keep;
  {
    FloatArena arena;
    FloatArena::Block a = arena.allocate(3);
    FloatArena::Block b = arena.allocate(5);
    CHECK(reinterpret_cast<std::uintptr_t>(a.data.data()) % 32 == 0);
    CHECK(reinterpret_cast<std::uintptr_t>(b.data.data()) % 32 == 0);
    CHECK(b.data.data() >= a.data.data() + 3);
    CHECK(a.owner.get() == a.data.data());
    b.data[4] = 42.0f;
    keep = b.owner;
    // A block larger than a chunk gets a chunk of its own.
    FloatArena::Block big = arena.allocate(std::size_t{1} << 17);
    big.data.back() = 1.0f;
    CHECK(arena.bytes_reserved() >= ((std::size_t{1} << 17) + (std::size_t{1} << 16)) * sizeof(float));
  }
  CHECK(keep[4] == 42.0f);  // ASan would flag a use after free here
}
