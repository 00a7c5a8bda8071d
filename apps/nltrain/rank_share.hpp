#pragma once
// nltrain train under mpirun: the batch's B streams cut into R contiguous parts, rank r taking
// streams [floor(r B / R), floor((r + 1) B / R)) (the split depends on B and R only), and the
// exchanges a step needs, over libcore/dist in rank order. The sums of the batch means pass
// through the ranks in stream order (nl::BatchShare), so R ranks give the bits of one process
// training the same --batch. Rank 0 alone writes (run directory, metrics, progress); before a
// checkpoint it collects the other ranks' context memories.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "common/result.hpp"
#include "dist/communicator.hpp"
#include "nl/batch_gradients.hpp"
#include "nl/trainer.hpp"

namespace nltrain::cli {

class RankShare final : public nl::BatchShare {
 public:
  // batch >= the number of ranks (every rank needs a stream).
  RankShare(std::shared_ptr<dist::Communicator> comm, std::size_t batch);

  [[nodiscard]] std::size_t first() const override { return first_; }
  [[nodiscard]] std::size_t count() const { return count_; }
  [[nodiscard]] std::size_t total() const override { return total_; }
  [[nodiscard]] int rank() const { return comm_->rank(); }
  [[nodiscard]] int ranks() const { return comm_->size(); }
  [[nodiscard]] common::Status chain(std::vector<float>& running,
                                     const std::function<void(std::vector<float>&)>& add_mine) override;
  [[nodiscard]] common::Result<std::string> first_failure(const std::string& mine) override;

  // True on every rank when any rank says so (a stop signal, a write that failed on rank 0).
  [[nodiscard]] common::Result<bool> any(bool mine);
  // Every rank's `identity` must be rank 0's; the error names the rank that differs.
  [[nodiscard]] common::Status agree(const std::string& identity, const std::string& what);
  // Rank 0's trainer receives every other rank's streams' context memories.
  [[nodiscard]] common::Status collect_contexts(nl::Trainer& trainer);
  // Ends every rank now (after this rank has said why on stderr).
  [[noreturn]] void abort(int code) {
    comm_->abort(code);
    std::_Exit(code);  // not reached: the communicator ends the process
  }

 private:
  std::shared_ptr<dist::Communicator> comm_;
  std::size_t total_, first_, count_;
};

// What every rank of one run must agree on: this binary's version, the run record (data digest,
// plan), the configuration's digest, the trainer's step and batch, and --stop-at.
[[nodiscard]] std::string rank_identity(const std::string& run_record, const nl::MagConfig& cfg, std::uint64_t step,
                                       std::size_t batch, std::uint64_t stop_at);

// The run's ranks (dist::world): one process leaves `share` empty; under a launcher with R > 1
// it holds this rank's share once every rank's `identity` (binary version, run record,
// configuration, step, batch, stop) equals rank 0's. An error is the same on every rank; only
// the rank for which speaks_for_the_run() holds should say it.
// True on rank 0, and in a run of one process.
[[nodiscard]] bool speaks_for_the_run();
[[nodiscard]] common::Status join_ranks(std::size_t batch, const std::string& identity, std::optional<RankShare>& share);
// For a run that trains in one process only (`what`: the option that makes it so): an error
// under a launcher with R > 1, the same on every rank.
[[nodiscard]] common::Status refuse_ranks(const std::string& what);

}  // namespace nltrain::cli
