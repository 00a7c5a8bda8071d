#include "train_episodes.hpp"

#include <cmath>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/dir_lock.hpp"
#include "common/file_system.hpp"
#include "common/float_json.hpp"
#include "hybrid/learning/spill_episode.hpp"

namespace nltrain::cli {
namespace {

double round_to_micros(double s) { return std::round(s * 1e6) / 1e6; }

constexpr std::size_t kMaxEpisodesBytes = std::size_t{64} << 20;  // as atenia learn's tables: far above any real use

}  // namespace

nlohmann::ordered_json spill_episode(const BudgetedSpill& spill) {
  if (spill.store == nullptr) return nullptr;
  const nl_store::SpillCost c = spill.store->total_cost();
  const std::uint64_t moved = c.spilled_bytes + c.restored_bytes;
  if (moved == 0) return nullptr;
  const double write_s = round_to_micros(c.write_s), read_s = round_to_micros(c.read_s);
  const nl_store::SpillOptions& o = spill.store->options();
  return {{"decision", "spill"},
          {"ram_pressure", common::float_json(spill.ram_pressure)},
          {"tier", o.tier},
          {"codec", spill.codec},
          {"spilled_bytes", c.spilled_bytes},
          {"restored_bytes", c.restored_bytes},
          {"stored_bytes", c.stored_bytes},
          {"write_s", write_s},
          {"read_s", read_s},
          {"score", hybrid::spill_score(moved, write_s + read_s)}};
}

common::Status append_episode(const std::string& path, const BudgetedSpill& spill, const std::string& run_dir) {
  if (path.empty()) return {};
  const nlohmann::ordered_json ep = spill_episode(spill);
  if (ep.is_null()) return {};
  common::FileSystem& fs = common::real_file_system();
  const std::string dir = common::parent_dir(path);
  auto real_dir = fs.resolve_symlinks(dir), real_run = fs.resolve_symlinks(run_dir);
  std::optional<common::DirLock> lock;  // flock on the run directory a second time would wait on ourselves
  if (!real_dir.ok() || !real_run.ok() || *real_dir != *real_run) {
    auto l = common::DirLock::acquire(dir);
    if (!l.ok()) return common::Error::io("--episodes: " + l.error().to_string());
    lock.emplace(std::move(*l));
  }
  std::string text;
  if (fs.node_kind(path) != common::NodeKind::missing) {
    auto old = common::read_text(fs, path, kMaxEpisodesBytes);
    if (!old.ok()) return common::Error::io("--episodes: " + old.error().to_string());
    text = std::move(*old);
    if (!text.empty() && text.back() != '\n') text += '\n';  // a line cut short stays its own (bad) line
  }
  text += ep.dump() + "\n";
  if (common::Status s = common::write_file_atomic(fs, path, text); !s.ok()) return common::Error::io("--episodes: " + s.error().to_string());
  return {};
}

}  // namespace nltrain::cli
