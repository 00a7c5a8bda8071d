#include "train_budget.hpp"

#include <algorithm>
#include <cmath>

#include "common/worker_pool.hpp"

#include "nl/context_footprint.hpp"

namespace nltrain::cli {

common::Result<std::unique_ptr<nl_store::SpillStore>> open_budget(const TrainOptions& opts, const std::string& out,
                                                                 const nl::Trainer& trainer, bool shared_batch,
                                                                 nl::StepObserver* observer) {
  const std::optional<std::uint64_t> budget = opts.memory_budget;
  if (!budget) return std::unique_ptr<nl_store::SpillStore>();
  if (*budget == 0) return common::Error::invalid_argument("--memory-budget: must be at least 1 byte");
  if (shared_batch) {
    return common::Error::invalid_argument("--memory-budget: a batch split across processes (mpirun) is not budgeted yet; "
                                           "run one process, or drop --memory-budget");
  }
  nl_store::SpillOptions o;
  o.budget_bytes = *budget;
  o.observer = observer;
  // As cmd_train sizes its pool: a batch runs min(threads, B) sequences at once, one runs alone.
  const std::size_t batch = trainer.batch();
  o.concurrency = batch > 1 ? static_cast<std::size_t>(std::min<std::uint64_t>(opts.threads.value_or(common::available_cores()), batch)) : 1;
  o.codec = opts.spill_codec == "none" ? hybrid::CompressionKind::none : hybrid::CompressionKind::shuffle_zstd;
  o.largest_context = nl::largest_context_bytes(trainer.config(), trainer.params(), trainer.context(0));
  auto store = nl_store::SpillStore::open(out, o);
  if (!store.ok()) {
    const common::Error& e = store.error();
    return common::Error(e.code(), (e.code() == common::ErrorCode::invalid_argument ? "--memory-budget: " : "") + e.message());
  }
  return std::move(*store);
}

void add_spill_cost(nlohmann::ordered_json& line, nl_store::SpillStore* store, bool timing) {
  if (store == nullptr) return;
  const nl_store::SpillCost c = store->take_cost();
  nlohmann::ordered_json m{{"budget_bytes", store->options().budget_bytes},
                           {"spilled_bytes", c.spilled_bytes},
                           {"restored_bytes", c.restored_bytes},
                           {"stored_bytes", c.stored_bytes},
                           {"peak_resident_bytes", c.peak_resident_bytes}};
  if (timing) m["write_s"] = std::round(c.write_s * 1000) / 1000, m["read_s"] = std::round(c.read_s * 1000) / 1000;
  line["memory"] = std::move(m);
}

}  // namespace nltrain::cli
