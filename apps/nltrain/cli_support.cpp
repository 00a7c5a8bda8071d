#include "cli_support.hpp"

#include <cctype>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "common/atomic_file.hpp"
#include "common/checked_stdout.hpp"
#include "common/file_system.hpp"

namespace nltrain::cli {
namespace {

struct RuleName {
  nl::RuleKind kind;
  std::string_view short_name, full_name;
};
constexpr RuleName kRuleNames[] = {
    {nl::RuleKind::delta, "delta", "DeltaRule"},     {nl::RuleKind::titans, "titans", "TitansLMM"},
    {nl::RuleKind::hebbian, "hebbian", "HebbianRule"}, {nl::RuleKind::moneta, "moneta", "Moneta"},
    {nl::RuleKind::yaad, "yaad", "YAAD"},             {nl::RuleKind::memora, "memora", "MEMORA"},
    {nl::RuleKind::lattice, "lattice", "LatticeOSR"}, {nl::RuleKind::trellis, "trellis", "Trellis"},
    {nl::RuleKind::atlas, "atlas", "AtlasOmega"},
};

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}


}  // namespace

common::Result<nl::RuleKind> parse_rule(std::string_view name) {
  for (const RuleName& r : kRuleNames) {
    if (iequal(name, r.short_name) || iequal(name, r.full_name)) return r.kind;
  }
  return common::Error::invalid_argument("--rule: unknown rule \"" + common::excerpt(name) +
                                         "\"; one of delta titans hebbian moneta yaad memora lattice trellis atlas");
}

std::string_view short_rule_name(nl::RuleKind kind) {
  for (const RuleName& r : kRuleNames)
    if (r.kind == kind) return r.short_name;
  return "?";
}

common::Result<nl::FrequencySchedule> parse_schedule(std::string_view name, std::string_view what) {
  if (name == "fixed") return nl::FrequencySchedule::fixed;
  if (name == "learned") return nl::FrequencySchedule::learned;
  return common::Error::invalid_argument(std::string(what) + ": unknown schedule \"" + common::excerpt(name) +
                                         "\"; one of fixed learned");
}

std::string_view schedule_name(nl::FrequencySchedule s) {
  return s == nl::FrequencySchedule::learned ? "learned" : "fixed";
}

}  // namespace nltrain::cli

#include "nl/register_opaque_vjps.hpp"

namespace nltrain::cli {

const tape::opaque::OpaqueRegistry& opaque_registry() {
  static const tape::opaque::OpaqueRegistry reg = [] {
    tape::opaque::OpaqueRegistry r;
    if (common::Status s = nl::register_opaque_vjps(r); !s.ok()) throw std::runtime_error(s.error().message());
    return r;
  }();
  return reg;
}

}  // namespace nltrain::cli
