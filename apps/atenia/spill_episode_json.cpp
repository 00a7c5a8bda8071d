#include "spill_episode_json.hpp"

#include <cmath>
#include <cstdint>

namespace atenia::cli {

common::Result<hybrid::SpillEpisode> parse_spill_episode(const common::JsonlRecord& rec, const std::string& file) {
  Fields f(rec.value, file, rec.line, "");
  if (auto s = f.only({"id", "decision", "ram_pressure", "tier", "codec", "spilled_bytes", "restored_bytes", "stored_bytes",
                       "write_s", "read_s", "score"});
      !s) {
    return s.error();
  }
  hybrid::SpillEpisode ep;
  auto ram = f.unit_float("ram_pressure");
  if (!ram) return ram.error();
  ep.ram_pressure = *ram;
  auto tier = f.string("tier");
  if (!tier) return tier.error();
  if (!hybrid::is_tier_label(*tier)) return f.error("tier", "expected 1..32 of a-z 0-9 _ - (not starting with _ or -), got \"" + common::excerpt(*tier) + "\"");
  auto codec = f.string("codec");
  if (!codec) return codec.error();
  if (!hybrid::is_spill_codec(*codec)) return f.error("codec", "expected \"zstd\" or \"none\", got \"" + common::excerpt(*codec) + "\"");
  ep.decision = {*tier, *codec};
  for (auto [key, into] : {std::pair{"spilled_bytes", &ep.outcome.spilled_bytes}, std::pair{"restored_bytes", &ep.outcome.restored_bytes},
                           std::pair{"stored_bytes", &ep.outcome.stored_bytes}}) {
    auto n = f.unsigned_int(key);
    if (!n) return n.error();
    *into = *n;
  }
  if (ep.outcome.restored_bytes > UINT64_MAX - ep.outcome.spilled_bytes) {
    return f.error("restored_bytes", "spilled_bytes + restored_bytes is over 18446744073709551615 (2^64-1)");
  }
  for (auto [key, into] : {std::pair{"write_s", &ep.outcome.write_s}, std::pair{"read_s", &ep.outcome.read_s}}) {
    auto x = f.number(key);
    if (!x) return x.error();
    if (!std::isfinite(*x) || *x < 0) return f.error(key, "expected a finite number of seconds >= 0");
    *into = *x;
  }
  auto score = f.signed_int("score");
  if (!score) return score.error();
  // The score is what the learner ranks by: one that disagrees with the measurements it
  // summarises would teach the table something the run never measured.
  const std::int32_t expect = hybrid::spill_score(ep.outcome.spilled_bytes + ep.outcome.restored_bytes, ep.outcome.write_s + ep.outcome.read_s);
  if (*score != expect) {
    return f.error("score", "expected " + std::to_string(expect) + " (KiB/s: the bytes moved over write_s + read_s), got " + std::to_string(*score));
  }
  ep.outcome.score = expect;
  return ep;
}

}  // namespace atenia::cli
