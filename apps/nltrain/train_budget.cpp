#include "train_budget.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "common/atomic_file.hpp"
#include "common/worker_pool.hpp"

#include "hybrid/learning/context_bucket.hpp"
#include "hybrid/profiler/probe_ram.hpp"
#include "nl/context_footprint.hpp"
#include "spill_tiers.hpp"

namespace nltrain::cli {

namespace {

// The machine's RAM pressure now (0 where /proc/meminfo cannot be read: band 0).
float machine_ram_pressure() {
  auto ram = hybrid::probe_ram(common::real_file_system());
  return ram.ok() ? hybrid::ram_pressure(*ram).value_or(0.0F) : 0.0F;
}

}  // namespace

common::Result<BudgetedSpill> open_budget(const TrainOptions& opts, const std::string& out, const nl::Trainer& trainer,
                                          RankShare* share, nl::StepObserver* observer) {
  const std::optional<std::uint64_t> budget = opts.memory_budget;
  if (!budget) {
    for (const auto& [name, used] : {std::pair{"--spill-tier", !opts.spill_tiers.empty()}, std::pair{"--placement-table", !opts.placement_table.empty()},
                                     std::pair{"--episodes", !opts.episodes.empty()}}) {
      if (used) return common::Error::invalid_argument(std::string(name) + ": only with --memory-budget (nothing is spilled without it)");
    }
    return BudgetedSpill{};
  }
  if (*budget == 0) return common::Error::invalid_argument("--memory-budget: must be at least 1 byte");
  // The episode is appended after the run: a directory that is not there is said now, not then.
  if (const std::string dir = common::parent_dir(opts.episodes); !opts.episodes.empty() && !common::real_file_system().is_dir(dir)) {
    return common::Error::io("--episodes: " + dir + " is not a directory");
  }
  auto tiers = parse_spill_tiers(opts.spill_tiers);
  if (!tiers.ok()) return tiers.error();
  BudgetedSpill spill;
  spill.ram_pressure = machine_ram_pressure();
  auto choice = choose_spill_tier(*tiers, opts.spill_codec, opts.spill_codec_given, opts.placement_table,
                                  hybrid::band_for_pressure(spill.ram_pressure));
  if (!choice.ok()) return choice.error();
  auto slow = slow_tier_hook(choice->tier.label);
  if (!slow.ok()) return slow.error();
  spill.slow_fs = std::move(*slow);
  nl_store::SpillOptions o;
  o.tier = choice->tier.label;
  o.tier_dir = choice->tier.dir;
  o.budget_bytes = *budget;
  o.observer = observer;
  // As cmd_train sizes its pool: a batch runs min(threads, its streams) sequences at once, one runs
  // alone. Under mpirun each rank budgets its own streams as if it had the most any rank has
  // (ceil(B / R)), so that every rank takes or refuses the budget alike; rank r > 0 spills to a
  // directory of its own beside rank 0's.
  const std::size_t batch = trainer.batch();
  const std::size_t most = share != nullptr ? (batch + static_cast<std::size_t>(share->ranks()) - 1) / static_cast<std::size_t>(share->ranks()) : batch;
  o.concurrency = batch > 1 ? static_cast<std::size_t>(std::min<std::uint64_t>(opts.threads.value_or(common::available_cores()), most)) : 1;
  if (share != nullptr && share->rank() > 0) o.part = "rank" + std::to_string(share->rank());
  o.codec = choice->codec == "none" ? hybrid::CompressionKind::none : hybrid::CompressionKind::shuffle_zstd;
  spill.codec = choice->codec, spill.learned = choice->learned;
  const nl::ContextFootprint f = nl::context_footprint(trainer.config(), trainer.params(), trainer.context(0));
  o.largest_context = f.bytes, o.unpaged_bytes = f.unpaged_bytes, o.state_bytes = f.state_bytes, o.trajectories = f.trajectories;
  // Rank 0 has made the run directory (its lock) before any rank makes its spill directory in it.
  if (auto made = share != nullptr ? share->any(false) : common::Result<bool>(false); !made.ok()) return made.error();
  auto store = nl_store::SpillStore::open(out, o, spill.slow_fs ? *spill.slow_fs : common::real_file_system());
  std::optional<common::Error> failed;
  if (!store.ok()) {
    const common::Error& e = store.error();
    failed = common::Error(e.code(), (e.code() == common::ErrorCode::invalid_argument ? "--memory-budget: " : "") + e.message());
  }
  if (share != nullptr) {  // the first rank's failure, on every rank (rank 0 says it)
    auto first = share->first_failure(failed ? std::to_string(static_cast<int>(failed->code())) + " " + failed->message() : "");
    if (!first.ok()) return first.error();
    if (!first->empty()) {
      const std::size_t space = first->find(' ');
      return common::Error(static_cast<common::ErrorCode>(std::stoi(first->substr(0, space))), first->substr(space + 1));
    }
  }
  if (failed) return *failed;
  spill.store = std::move(*store);
  return spill;
}

void add_spill_cost(nlohmann::ordered_json& line, const BudgetedSpill& spill, bool timing) {
  nl_store::SpillStore* store = spill.get();
  if (store == nullptr) return;
  const nl_store::SpillCost c = store->take_cost();
  nlohmann::ordered_json m{{"budget_bytes", store->options().budget_bytes},
                           {"spilled_bytes", c.spilled_bytes},
                           {"restored_bytes", c.restored_bytes},
                           {"stored_bytes", c.stored_bytes},
                           {"peak_resident_bytes", c.peak_resident_bytes},
                           {"tier", store->options().tier},
                           {"codec", spill.codec},
                           {"learned", spill.learned}};
  if (timing) m["write_s"] = std::round(c.write_s * 1000) / 1000, m["read_s"] = std::round(c.read_s * 1000) / 1000;
  line["memory"] = std::move(m);
}

}  // namespace nltrain::cli
