#include "rank_share.hpp"

#include <cstring>

#include "build_info/build_info.hpp"
#include "common/sha256.hpp"
#include "dist/ordered.hpp"
#include "nl/state_json.hpp"

namespace nltrain::cli {
namespace {

std::size_t stream_begin(std::size_t batch, int rank, int ranks) {
  return batch * static_cast<std::size_t>(rank) / static_cast<std::size_t>(ranks);
}

}  // namespace

std::string rank_identity(const std::string& run_record, const nl::MagConfig& cfg, std::uint64_t step, std::size_t batch,
                          std::uint64_t stop_at) {
  return "nltrain " + std::string(build_info::version()) + "|" + run_record + "|config " +
         common::sha256_hex(nl::config_to_json(cfg).dump()) + "|step " + std::to_string(step) +
         "|batch " + std::to_string(batch) + "|stop-at " + std::to_string(stop_at);
}

common::Status refuse_ranks(const std::string& what) {
  auto world = dist::world();
  if (!world.ok()) return world.error();
  if ((*world)->size() == 1) return {};
  return common::Error::invalid_argument(what + " trains in one process; it does not run across " + std::to_string((*world)->size()) +
                                         " MPI ranks");
}

bool speaks_for_the_run() {
  auto world = dist::world();
  return !world.ok() || (*world)->rank() == 0;
}

common::Status join_ranks(std::size_t batch, const std::string& identity, std::optional<RankShare>& share) {
  auto world = dist::world();
  if (!world.ok()) return world.error();
  const int ranks = (*world)->size();
  if (ranks == 1) return {};
  if (batch < static_cast<std::size_t>(ranks)) {
    return common::Error::invalid_argument("--batch " + std::to_string(batch) + " over " + std::to_string(ranks) +
                                           " MPI ranks: every rank needs a stream of its own; give --batch " +
                                           std::to_string(ranks) + " or more");
  }
  share.emplace(*world, batch);
  return share->agree(identity, "run (binary version, configuration, data, plan or checkpoint)");
}

RankShare::RankShare(std::shared_ptr<dist::Communicator> comm, std::size_t batch)
    : comm_(std::move(comm)),
      total_(batch),
      first_(stream_begin(batch, comm_->rank(), comm_->size())),
      count_(stream_begin(batch, comm_->rank() + 1, comm_->size()) - first_) {}

common::Status RankShare::chain(std::vector<float>& running, const std::function<void(std::vector<float>&)>& add_mine) {
  return dist::chain_in_rank_order(*comm_, running, add_mine);
}

common::Result<std::string> RankShare::first_failure(const std::string& mine) { return dist::first_in_rank_order(*comm_, mine); }

common::Result<bool> RankShare::any(bool mine) {
  auto first = dist::first_in_rank_order(*comm_, mine ? "stop" : "");
  if (!first.ok()) return first.error();
  return !first->empty();
}

common::Status RankShare::agree(const std::string& identity, const std::string& what) {
  return dist::agree(*comm_, identity, what);
}

common::Status RankShare::collect_contexts(nl::Trainer& trainer) {
  // Each rank's streams' memories as one float vector (level by level, stream after stream).
  std::vector<float> mine;
  for (std::size_t s = first_; s < first_ + count_; ++s) {
    for (const std::vector<float>& level : trainer.context(s).levels) mine.insert(mine.end(), level.begin(), level.end());
  }
  auto all = dist::gather_in_rank_order(*comm_, std::as_bytes(std::span(mine)));
  if (!all.ok()) return all.error();
  if (comm_->rank() != 0) return {};
  for (int r = 1; r < comm_->size(); ++r) {
    const std::vector<std::byte>& bytes = (*all)[static_cast<std::size_t>(r)];
    std::size_t at = 0;  // in floats
    const std::size_t begin = stream_begin(total_, r, comm_->size()), end = stream_begin(total_, r + 1, comm_->size());
    for (std::size_t s = begin; s < end; ++s) {
      nl::ContextMemory<float> c = trainer.context(s);  // the shape; the values come from rank r
      for (std::vector<float>& level : c.levels) {
        if ((at + level.size()) * sizeof(float) > bytes.size()) {
          return common::Error::malformed("MPI: rank " + std::to_string(r) + " sent " + std::to_string(bytes.size()) +
                                          " bytes of context memory, fewer than its streams hold");
        }
        std::memcpy(level.data(), bytes.data() + at * sizeof(float), level.size() * sizeof(float));
        at += level.size();
      }
      if (common::Status st = trainer.set_context(s, std::move(c)); !st.ok()) return st;
    }
    if (at * sizeof(float) != bytes.size()) {
      return common::Error::malformed("MPI: rank " + std::to_string(r) + " sent more context memory than its streams hold");
    }
  }
  return {};
}

}  // namespace nltrain::cli
