#include "suggest.hpp"

#include <algorithm>
#include <array>

#include "cli_common/nearest_name.hpp"
#include "common/edit_distance.hpp"

namespace bp::cli {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

struct VerbExample {
  std::string_view verb;
  std::string_view example;
};

// Order matters: ties keep the earlier entry.
constexpr std::array<VerbExample, 8> kVerbs = {{
    {"reconcile", "bp reconcile receipt <file>"},
    {"verify", "bp verify mazur | general <file> | multi <file.jsonl>"},
    {"generate", "bp generate mazur | xor | iris | from-config <file>"},
    {"import", "bp import pytorch <sidecar.jsonl>"},
    {"scaffold", "bp scaffold topology --topology mazur|xor|iris"},
    {"examples", "bp examples pytorch [--print]"},
    {"validate-input", "bp validate-input <file>"},
    {"validate", "bp validate <file>"},
}};

}  // namespace

std::optional<std::string> suggest_command(std::string_view unknown) {
  // 1. The shortest verb the typed word is a prefix of ("gen" -> generate, "validat" -> validate).
  const VerbExample* best = nullptr;
  for (const auto& c : kVerbs) {
    if (starts_with(c.verb, unknown) && (best == nullptr || c.verb.size() < best->verb.size())) best = &c;
  }
  if (best != nullptr) return std::string(best->example);
  // 2. The longest verb that is a prefix of the typed word ("validate-inp" -> validate-input).
  for (const auto& c : kVerbs) {
    if (starts_with(unknown, c.verb) && (best == nullptr || c.verb.size() > best->verb.size())) best = &c;
  }
  if (best != nullptr) return std::string(best->example);
  // 3. The nearest verb by edit distance.
  std::size_t best_dist = 0;
  for (const auto& c : kVerbs) {
    const std::size_t dist = common::osa_distance(unknown, c.verb);
    if (dist > cli_common::reach_of(c.verb)) continue;
    if (best == nullptr || dist < best_dist || (dist == best_dist && c.verb.size() < best->verb.size())) {
      best = &c;
      best_dist = dist;
    }
  }
  if (best != nullptr) return std::string(best->example);
  return std::nullopt;
}

std::optional<std::string_view> suggest_flag(std::string_view unknown, const std::vector<std::string_view>& known) {
  // Names compare without their dashes, so "--quiet" is not 3 edits from "--print" out of 7.
  auto bare = [](std::string_view f) { return f.substr(std::min(f.find_first_not_of('-'), f.size())); };
  const std::string_view head = bare(unknown.substr(0, unknown.find('=')));
  std::optional<std::string_view> best;
  std::size_t best_dist = 0;
  for (auto flag : known) {
    if (bare(flag).size() < 3) continue;  // one edit from any other single letter: no evidence
    const std::size_t dist = common::osa_distance(head, bare(flag));
    if (dist > cli_common::reach_of(bare(flag))) continue;
    if (!best || dist < best_dist || (dist == best_dist && flag.size() < best->size())) {
      best = flag;
      best_dist = dist;
    }
  }
  return best;
}

std::optional<std::string_view> suggest_subnoun(std::string_view unknown, const std::vector<SubnounExample>& candidates) {
  for (const auto& c : candidates) {
    if (starts_with(c.noun, unknown) || starts_with(unknown, c.noun)) return c.example;
  }
  // Then the nearest by edit distance ("xr" -> xor), the earlier entry on a tie.
  const SubnounExample* best = nullptr;
  std::size_t best_dist = 0;
  for (const auto& c : candidates) {
    const std::size_t dist = common::osa_distance(unknown, c.noun);
    if (dist > cli_common::reach_of(c.noun)) continue;
    if (best == nullptr || dist < best_dist) {
      best = &c;
      best_dist = dist;
    }
  }
  if (best != nullptr) return best->example;
  return std::nullopt;
}

}  // namespace bp::cli
