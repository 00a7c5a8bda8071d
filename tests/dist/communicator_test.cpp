// libcore/dist: run alone (one process) and by ctest under mpirun with 2, 3 and 4 ranks
// (tests/CMakeLists.txt); every case holds for any number of ranks.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dist/communicator.hpp"
#include "dist/ordered.hpp"

namespace {

dist::Communicator& comm() {
  static std::shared_ptr<dist::Communicator> w = dist::world().value();
  return *w;
}

// Twelve parts whose float sum depends on the order of addition (magnitudes from 1e-3 to 1e7).
constexpr std::size_t kParts = 12, kLen = 257;
std::vector<float> part(std::size_t p) {
  std::vector<float> v(kLen);
  std::uint32_t x = 2463534242u + static_cast<std::uint32_t>(p) * 7919u;
  for (float& f : v) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    const float mag = static_cast<float>(std::pow(10.0, static_cast<double>(x % 11) - 3.0));
    f = (static_cast<float>(x % 2001) / 1000.0f - 1.0f) * mag;
  }
  return v;
}

std::vector<float> sequential_sum(std::size_t from, std::size_t to, std::vector<float> acc) {
  for (std::size_t p = from; p < to; ++p) {
    const std::vector<float> v = part(p);
    for (std::size_t i = 0; i < kLen; ++i) acc[i] += v[i];
  }
  return acc;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("dist: the world has the ranks the launcher started") {
  CHECK(comm().size() == dist::launched_size());
  CHECK(comm().rank() >= 0);
  CHECK(comm().rank() < comm().size());
  if (comm().size() > 1) CHECK(comm().transport() == "mpi");
}

TEST_CASE("dist: a chain in rank order sums floats with one process's bits, for any number of ranks") {
  const auto r = static_cast<std::size_t>(comm().rank()), n = static_cast<std::size_t>(comm().size());
  const std::size_t from = r * kParts / n, to = (r + 1) * kParts / n;  // this rank's parts, in order
  std::vector<float> running(kLen, 0.0f);
  REQUIRE(dist::chain_in_rank_order(comm(), running, [&](std::vector<float>& acc) { acc = sequential_sum(from, to, std::move(acc)); }).ok());
  const std::vector<float> one = sequential_sum(0, kParts, std::vector<float>(kLen, 0.0f));
  CHECK(same_bits(running, one));
  // The parts were chosen so that order matters: two halves summed apart, then added, differ.
  std::vector<float> halves = sequential_sum(0, kParts / 2, std::vector<float>(kLen, 0.0f));
  const std::vector<float> second = sequential_sum(kParts / 2, kParts, std::vector<float>(kLen, 0.0f));
  for (std::size_t i = 0; i < kLen; ++i) halves[i] += second[i];
  CHECK(!same_bits(halves, one));
}

TEST_CASE("dist: gather in rank order, and messages of several megabytes") {
  const std::string mine = "rank " + std::to_string(comm().rank());
  auto all = dist::gather_in_rank_order(comm(), std::as_bytes(std::span(mine.data(), mine.size())));
  REQUIRE(all.ok());
  if (comm().rank() == 0) {
    REQUIRE(all->size() == static_cast<std::size_t>(comm().size()));
    for (int r = 0; r < comm().size(); ++r) {
      CHECK(std::string(reinterpret_cast<const char*>((*all)[r].data()), (*all)[r].size()) == "rank " + std::to_string(r));
    }
  } else {
    CHECK(all->empty());
  }
  std::vector<std::byte> big;
  if (comm().rank() == 0) {
    big.resize(5u << 20);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::byte>(i * 131 % 251);
  }
  REQUIRE(comm().broadcast(0, big).ok());
  REQUIRE(big.size() == 5u << 20);
  CHECK(big[12345] == static_cast<std::byte>(12345 * 131 % 251));
}

TEST_CASE("dist: agree names the first rank whose identity differs, on every rank") {
  CHECK(dist::agree(comm(), "config sha256 abc", "configuration").ok());
  const std::string mine = comm().rank() == 2 ? "config sha256 xyz" : "config sha256 abc";
  const common::Status s = dist::agree(comm(), mine, "configuration");
  if (comm().size() < 3) {
    CHECK(s.ok());
  } else {
    REQUIRE(!s.ok());
    CHECK(s.error().message() == "rank 2's configuration differs from rank 0's");
  }
}

TEST_CASE("dist: one process cannot send or receive") {
  dist::Communicator& c = comm();
  if (c.size() != 1) return;
  CHECK(!c.send(1, {}).ok());
  CHECK(!c.receive(1).ok());
}
