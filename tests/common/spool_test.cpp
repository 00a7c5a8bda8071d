#include "common/spool.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace spool_test {

// Pieces of every length from 1 to 97 bytes, numbered, so that a byte out of place shows.
std::string pieces(common::Spool& spool, std::size_t bytes) {
  std::string want;
  for (std::size_t i = 0; want.size() < bytes; ++i) {
    const std::string piece = std::to_string(i) + std::string(i % 97, 'a' + static_cast<char>(i % 26)) + "\n";
    spool.append(piece);
    want += piece;
  }
  return want;
}

std::string replayed(common::Spool& spool) {
  std::string got;
  CHECK(spool.replay([&got](std::string_view chunk) {
    got += chunk;
    return true;
  }));
  return got;
}

std::string read_fd(int fd) {
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  return got;
}

}  // namespace spool_test

namespace st = spool_test;

TEST_CASE("common/spool: what was appended is replayed whole and in order, in memory, past it and across blocks") {
  // 0: every byte to the file; 5,000: the memory's few bytes, then the file; the default: memory
  // only, over several 1 MiB blocks (pieces straddle their edges).
  for (const std::size_t limit : {std::size_t{0}, std::size_t{5000}, common::Spool::kMemoryBytes}) {
    CAPTURE(limit);
    common::Spool spool(limit);
    REQUIRE_FALSE(spool.open("spool-test").has_value());
    CHECK(spool.empty());
    const std::string want = st::pieces(spool, 3'300'000);
    CHECK_FALSE(spool.empty());
    CHECK_FALSE(spool.failed());
    CHECK(st::replayed(spool) == want);
    CHECK(st::replayed(spool) == want);  // again: replay consumes nothing
    // Writable chunks: an edit made in one is what the sink passes on (the import's digests).
    std::string edited;
    CHECK(spool.replay_writable([&edited](std::span<char> chunk) {
      for (char& c : chunk) c = c == 'a' ? 'A' : c;
      edited.append(chunk.data(), chunk.size());
      return true;
    }));
    std::string want_edited = want;
    for (char& c : want_edited) c = c == 'a' ? 'A' : c;
    CHECK(edited == want_edited);
    // A sink that stops the replay fails it.
    CHECK_FALSE(spool.replay([](std::string_view) { return false; }));
  }
}

TEST_CASE("common/spool: reading_fd gives every byte, those held in memory first") {
  for (const std::size_t limit : {std::size_t{0}, std::size_t{5000}, common::Spool::kMemoryBytes}) {
    CAPTURE(limit);
    common::Spool spool(limit);
    REQUIRE_FALSE(spool.open("spool-test").has_value());
    const std::string want = st::pieces(spool, 200'000);
    const int fd = spool.reading_fd();
    REQUIRE(fd >= 0);
    CHECK(st::read_fd(fd) == want);
  }
}

TEST_CASE("common/spool: clear drops memory and file alike; the spool serves again") {
  for (const std::size_t limit : {std::size_t{0}, std::size_t{5000}, common::Spool::kMemoryBytes}) {
    CAPTURE(limit);
    common::Spool spool(limit);
    REQUIRE_FALSE(spool.open("spool-test").has_value());
    (void)st::pieces(spool, 20'000);
    spool.clear();
    CHECK(spool.empty());
    CHECK(st::replayed(spool).empty());
    const std::string want = st::pieces(spool, 7'000);
    CHECK(st::replayed(spool) == want);
  }
}
