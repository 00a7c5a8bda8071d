#include "dist/ordered.hpp"

#include <cstring>

namespace dist {
namespace {

std::span<const std::byte> bytes_of(const std::vector<float>& v) { return std::as_bytes(std::span(v)); }

common::Result<std::vector<float>> floats_of(const std::vector<std::byte>& b) {
  if (b.size() % sizeof(float) != 0) return common::Error::malformed("dist: a float vector of " + std::to_string(b.size()) + " bytes");
  std::vector<float> out(b.size() / sizeof(float));
  if (!b.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}

std::vector<std::byte> to_bytes(const std::string& s) {
  std::vector<std::byte> out(s.size());
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
  return out;
}

}  // namespace

common::Result<std::vector<std::vector<std::byte>>> gather_in_rank_order(Communicator& c, std::span<const std::byte> mine) {
  std::vector<std::vector<std::byte>> all;
  if (c.rank() != 0) {
    if (common::Status s = c.send(0, mine); !s.ok()) return s.error();
    return all;
  }
  all.emplace_back(mine.begin(), mine.end());
  for (int r = 1; r < c.size(); ++r) {
    auto b = c.receive(r);
    if (!b.ok()) return b.error();
    all.push_back(std::move(*b));
  }
  return all;
}

common::Status chain_in_rank_order(Communicator& c, std::vector<float>& running,
                                   const std::function<void(std::vector<float>&)>& add_mine) {
  const int r = c.rank(), last = c.size() - 1;
  if (r > 0) {
    auto b = c.receive(r - 1);
    if (!b.ok()) return b.error();
    auto v = floats_of(*b);
    if (!v.ok()) return v.error();
    running = std::move(*v);
  }
  add_mine(running);
  if (r < last) {
    if (common::Status s = c.send(r + 1, bytes_of(running)); !s.ok()) return s;
  }
  if (last == 0) return {};
  std::vector<std::byte> total;
  if (r == last) total.assign(bytes_of(running).begin(), bytes_of(running).end());
  if (common::Status s = c.broadcast(last, total); !s.ok()) return s;
  auto v = floats_of(total);
  if (!v.ok()) return v.error();
  running = std::move(*v);
  return {};
}

common::Result<std::string> first_in_rank_order(Communicator& c, const std::string& mine) {
  auto all = gather_in_rank_order(c, to_bytes(mine));
  if (!all.ok()) return all.error();
  std::vector<std::byte> first;
  for (const std::vector<std::byte>& b : *all) {
    if (!b.empty()) {
      first = b;
      break;
    }
  }
  if (common::Status s = c.broadcast(0, first); !s.ok()) return s.error();
  return std::string(reinterpret_cast<const char*>(first.data()), first.size());
}

common::Status agree(Communicator& c, const std::string& identity, const std::string& what) {
  auto all = gather_in_rank_order(c, to_bytes(identity));
  if (!all.ok()) return all.error();
  std::string verdict;  // empty: all agree; else the message, decided by rank 0 for everyone
  if (c.rank() == 0) {
    for (std::size_t r = 1; r < all->size(); ++r) {
      if ((*all)[r] != (*all)[0]) {
        verdict = "rank " + std::to_string(r) + "'s " + what + " differs from rank 0's";
        break;
      }
    }
  }
  std::vector<std::byte> v = to_bytes(verdict);
  if (common::Status s = c.broadcast(0, v); !s.ok()) return s;
  if (v.empty()) return {};
  return common::Error::invalid_argument(std::string(reinterpret_cast<const char*>(v.data()), v.size()));
}

}  // namespace dist
