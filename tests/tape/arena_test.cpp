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

TEST_CASE("arena: a freed standard chunk is reused by the next arena on the thread, a live one is not") {
  const float* first = nullptr;
  {
    FloatArena arena;
    first = arena.allocate(10).data.data();
  }
  {
    FloatArena arena;
    FloatArena::Block again = arena.allocate(10);
    CHECK(again.data.data() == first);  // no new chunk, no page faults
    FloatArena other;
    FloatArena::Block b = other.allocate(10);
    CHECK(b.data.data() != again.data.data());  // the chunk in use is not handed out twice
  }
  // A chunk kept alive by a block's owner stays out of the cache until the owner goes.
  std::shared_ptr<const float[]> keep;
  {
    FloatArena arena;
    FloatArena::Block a = arena.allocate(10);
    a.data[0] = 7.0f;
    keep = a.owner;
  }
  {
    FloatArena arena;
    FloatArena::Block b = arena.allocate(10);
    CHECK(b.data.data() != keep.get());
    b.data[0] = 1.0f;
  }
  CHECK(keep[0] == 7.0f);
}
