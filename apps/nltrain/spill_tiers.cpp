#include "spill_tiers.hpp"

#include <charconv>
#include <cstdlib>
#include <set>

#include "common/throttled_file_system.hpp"
#include "hybrid/learning/spill_episode.hpp"
#include "hybrid/learning/trainer_table.hpp"

namespace nltrain::cli {

common::Result<std::vector<SpillTier>> parse_spill_tiers(const std::vector<std::string>& specs) {
  if (specs.empty()) return std::vector<SpillTier>{{"ssd", ""}};
  std::vector<SpillTier> out;
  std::set<std::string> labels;
  for (const std::string& spec : specs) {
    const std::size_t eq = spec.find('=');
    std::string label = spec.substr(0, eq);
    std::string dir = eq == std::string::npos ? std::string() : spec.substr(eq + 1);
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (eq == std::string::npos || dir.empty()) {
      return common::Error::invalid_argument("--spill-tier: expected LABEL=DIR, got \"" + common::excerpt(spec) + "\"");
    }
    if (!hybrid::is_tier_label(label)) {
      return common::Error::invalid_argument("--spill-tier: the label \"" + common::excerpt(label) +
                                             "\" must be 1..32 of a-z 0-9 _ - (not starting with _ or -)");
    }
    if (!labels.insert(label).second) return common::Error::invalid_argument("--spill-tier: the label \"" + label + "\" is named twice");
    out.push_back({std::move(label), std::move(dir)});
  }
  return out;
}

common::Result<SpillChoice> choose_spill_tier(const std::vector<SpillTier>& tiers, const std::string& codec, bool codec_given,
                                              const std::string& table, std::uint8_t ram_band) {
  SpillChoice choice{tiers.front(), codec, false};
  if (table.empty()) return choice;
  auto t = hybrid::read_trainer_table_full(common::real_file_system(), table);
  if (!t.ok()) return common::Error(t.error().code(), "--placement-table: " + t.error().to_string());
  std::vector<hybrid::SpillDecision> candidates;
  for (const SpillTier& tier : tiers) {
    for (const char* c : {"zstd", "none"}) {
      if (!codec_given || codec == c) candidates.push_back({tier.label, c});
    }
  }
  const auto best = t->spill.recommend(ram_band, candidates);
  if (!best) return choice;
  for (const SpillTier& tier : tiers) {
    if (tier.label == best->decision.tier) choice = {tier, best->decision.codec, true};
  }
  return choice;
}

common::Result<std::unique_ptr<common::FileSystem>> slow_tier_hook(const std::string& label) {
  const char* env = std::getenv("NLTRAIN_TEST_SLOW_TIER");
  if (env == nullptr || *env == '\0') return std::unique_ptr<common::FileSystem>();
  const std::string spec = env;
  const std::size_t colon = spec.rfind(':');
  unsigned ms = 0;
  const char* first = spec.data() + (colon == std::string::npos ? spec.size() : colon + 1);
  const char* last = spec.data() + spec.size();
  auto [ptr, ec] = std::from_chars(first, last, ms);
  if (colon == std::string::npos || colon == 0 || first == last || ec != std::errc() || ptr != last || ms > 60000) {
    return common::Error::invalid_argument("NLTRAIN_TEST_SLOW_TIER: expected LABEL:MILLISECONDS_PER_MIB (at most 60000), got \"" +
                                           common::excerpt(spec) + "\"");
  }
  if (spec.substr(0, colon) != label) return std::unique_ptr<common::FileSystem>();
  return std::unique_ptr<common::FileSystem>(
      new common::ThrottledFileSystem(common::real_file_system(), std::chrono::milliseconds(ms)));
}

}  // namespace nltrain::cli
