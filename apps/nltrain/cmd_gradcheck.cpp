// nltrain gradcheck: tape vs hand-written backward vs finite differences, per parameter.
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "device_option.hpp"
#include "cli_common/count_option.hpp"
#include "nl/gradcheck.hpp"

namespace nltrain::cli {
namespace {

struct GradcheckOptions {
  std::string rule = "delta";
  std::size_t levels = kDefaultLevels;  // the same model as train's default
  bool stress = false, fp64 = false, json = false, all = false;
  std::string perturb;  // NAME[INDEX]+=AMOUNT, empty: none
  std::string schedule = "fixed";
  std::string device = "cpu";  // the tape's memory rules and SWA through libgpu's kernels (device_option.hpp)
};

// --perturb-gradient NAME[INDEX]+=AMOUNT, e.g. "levels/0/W_Q[3]+=0.01". Whether NAME and INDEX
// exist is the library's check (exit 3); this only reads the syntax (exit 2).
common::Result<nl::GradientPerturbation> parse_perturbation(std::string_view spec) {
  auto bad = [&](const std::string& why) {
    return common::Error::malformed("--perturb-gradient: '" + std::string(spec) + "': " + why +
                                    " (expected NAME[INDEX]+=AMOUNT, e.g. W_O[3]+=0.01)");
  };
  const std::size_t op = spec.rfind("]+=");
  const std::size_t open = op == std::string_view::npos ? op : spec.rfind('[', op);
  if (open == std::string_view::npos || open == 0) return bad("no NAME[INDEX]+=");
  nl::GradientPerturbation g;
  g.tensor = std::string(spec.substr(0, open));
  const std::string_view index = spec.substr(open + 1, op - open - 1);
  const auto [ip, iec] = std::from_chars(index.data(), index.data() + index.size(), g.index);
  if (index.empty() || iec != std::errc() || ip != index.data() + index.size()) return bad("INDEX is not a non-negative integer");
  const std::string_view amount = spec.substr(op + 3);
  const auto [ap, aec] = std::from_chars(amount.data(), amount.data() + amount.size(), g.amount);
  if (amount.empty() || ap != amount.data() + amount.size() || (aec != std::errc() && aec != std::errc::result_out_of_range)) {
    return bad("AMOUNT is not a number");
  }
  if (aec == std::errc::result_out_of_range) {
    return common::Error::invalid_argument("--perturb-gradient: AMOUNT '" + std::string(amount) + "' is out of the double range");
  }
  return g;
}

// A worst error over no compared entries does not exist: null in JSON, "-" in the table.
nlohmann::ordered_json optional_number(const std::optional<double>& v) { return v ? nlohmann::ordered_json(*v) : nullptr; }
std::string optional_text(const std::optional<double>& v) { return v ? fmt::format("{:.3e}", *v) : "-"; }

int run_gradcheck(const GradcheckOptions& o) {
  // --fp64 here is the FD's precision, not the model's: the tape (kernels or not) stays fp32.
  if (common::Status s = use_device(o.device, false); !s.ok()) return report(s.error());
  const std::string device = receipt_device(o.device);  // empty for nl's own code
  std::vector<nl::RuleKind> rules;
  if (o.all) {
    rules.assign(std::begin(nl::kAllRuleKinds), std::end(nl::kAllRuleKinds));
  } else {
    auto r = parse_rule(o.rule);
    if (!r.ok()) return report(r.error());
    rules.push_back(*r);
  }
  if (o.levels == 0 || o.levels > kMaxLevels) {
    return report(common::Error::invalid_argument("--levels: must be in 1.." + std::to_string(kMaxLevels)));
  }
  auto schedule = parse_schedule(o.schedule, "--schedule");
  if (!schedule.ok()) return report(schedule.error());
  const bool learned = *schedule == nl::FrequencySchedule::learned;
  if (learned && o.levels < 2) {
    return report(common::Error::invalid_argument("--schedule: learned needs --levels >= 2 (level 0 is always active; "
                                                  "the gate decides levels 1..K-1), got --levels " + std::to_string(o.levels)));
  }
  std::optional<nl::GradientPerturbation> perturb;
  if (!o.perturb.empty()) {
    auto g = parse_perturbation(o.perturb);
    if (!g.ok()) return report(g.error());
    perturb = *g;
  }
  bool all_passed = true;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (nl::RuleKind rule : rules) {
    auto rep = nl::gradcheck(opaque_registry(), {rule, o.levels, o.stress, o.fp64, perturb, *schedule});
    if (!rep.ok()) return report(rep.error());
    all_passed = all_passed && rep->passed();
    const std::string protocol = std::string(o.fp64 ? "fp64 FD every entry, eps 1e-6, rel 1e-4"
                                                    : "fp32 FD 20 sampled entries per tensor, eps 1e-2, rel 0.10, floor 5e-4") +
                                 (o.stress ? "; stress: biases 0, weights x3, random context, alternate levels frozen" : "") +
                                 (learned ? "; learned schedule: FD with the gate's mask held fixed, E without the "
                                            "straight-through term, W_freq/b_freq by FD in the mask"
                                          : "") +
                                 (perturb ? "; negative control: hand-written gradient " + o.perturb : "") +
                                 (device.empty() ? "" : "; tape: libgpu's kernel pairs, SWA and head on " + device);
    if (o.json) {
      nlohmann::ordered_json j{{"rule", short_rule_name(rule)}, {"levels", o.levels}, {"schedule", o.schedule}, {"stress", o.stress}, {"fp64", o.fp64},
                               {"protocol", protocol}, {"loss", rep->loss}, {"passed", rep->passed()}};
      if (perturb) j["perturbed"] = {{"tensor", perturb->tensor}, {"index", perturb->index}, {"amount", perturb->amount}};
      j["active"] = rep->active;
      if (!rep->gate_failure.empty()) j["gate_failure"] = rep->gate_failure;
      j["tensors"] = nlohmann::ordered_json::array();
      for (const nl::TensorCheck& t : rep->tensors) {
        j["tensors"].push_back({{"name", t.name}, {"size", t.size}, {"frozen", t.frozen}, {"max_abs_grad", t.max_abs_grad},
                                {"tape_vs_hand_rel", t.tape_vs_hand}, {"tape_failed", t.tape_failed},
                                {"fd_checked", t.fd_checked}, {"fd_compared", t.fd_compared}, {"fd_skipped", t.fd_skipped},
                                {"fd_failed", t.fd_failed}, {"fd_worst_abs", optional_number(t.fd_worst_abs)},
                                {"fd_worst_rel", optional_number(t.fd_worst_rel)},
                                {"passed", t.passed()}, {"first_failure", t.first_failure}});
      }
      out.push_back(std::move(j));
      continue;
    }
    std::cout << fmt::format("gradcheck {} K={}{}{}{}: {} ({})\n", short_rule_name(rule), o.levels,
                             learned ? " --schedule learned" : "", o.stress ? " --stress" : "",
                             o.fp64 ? " --fp64" : "", rep->passed() ? "PASS" : "FAIL", protocol);
    std::cout << fmt::format("  {:<22} {:>5} {:>11} {:>12} {:>7} {:>7} {:>12} {:>12}  {}\n", "parameter", "size", "max |grad|",
                             "tape~hand", "FD cmp", "FD skip", "FD worst abs", "FD worst rel", "status");
    if (!rep->gate_failure.empty()) std::cout << "  MISMATCH: " << rep->gate_failure << "\n";
    for (const nl::TensorCheck& t : rep->tensors) {
      std::cout << fmt::format("  {:<22} {:>5} {:>11.3e} {:>12.3e} {:>7} {:>7} {:>12} {:>12}  {}{}\n", t.name + (t.frozen ? "*" : ""),
                               t.size, t.max_abs_grad, t.tape_vs_hand, t.fd_compared, t.fd_skipped,
                               optional_text(t.fd_worst_abs), optional_text(t.fd_worst_rel),
                               t.passed() ? "ok" : "MISMATCH", t.first_failure.empty() ? "" : "  " + t.first_failure);
    }
  }
  if (o.json) std::cout << (o.all ? out : out[0]).dump(2) << "\n";
  else if (std::any_of(rules.begin(), rules.end(), [](auto) { return true; }) && o.levels > 1 && o.stress)
    std::cout << "  (* a frozen level: its gradient is the error-buffer contribution)\n";
  return all_passed ? kExitOk : kExitFailure;
}

}  // namespace

Registration add_gradcheck_command(CLI::App& app) {
  auto o = std::make_shared<GradcheckOptions>();
  CLI::App* cmd = app.add_subcommand("gradcheck", "Check gradients: tape vs hand-written backward vs finite differences");
  CLI::Option* rule = cmd->add_option("--rule", o->rule, "Memory rule (default delta)");
  cmd->add_flag("--all-rules", o->all, "Check all nine rules (not with --rule)")->excludes(rule);
  cli_common::add_count_option(cmd, "--levels", o->levels, "CMS levels K (default 2, as train)");
  cmd->add_option("--schedule", o->schedule,
                  "CMS frequency schedule: fixed or learned (the straight-through gate; needs --levels >= 2; "
                  "FD then holds the gate's mask fixed)");
  cmd->add_flag("--stress", o->stress, "Stress variant: gate biases 0, weights x3, random memory, frozen levels");
  cmd->add_flag("--fp64", o->fp64, "Finite differences in double precision on every entry");
  cmd->add_flag("--json", o->json, "Report as JSON");
  cmd->add_option("--device", o->device, std::string(kDeviceHelp) + "; the tape column is then the kernels' gradient");
  cmd->add_option("--perturb-gradient", o->perturb,
                  "Negative control: add AMOUNT to one hand-written gradient entry, NAME[INDEX]+=AMOUNT "
                  "(e.g. W_O[3]+=0.01); the check must then report NAME as a mismatch (exit 1)");
  return {cmd, [o] { return run_gradcheck(*o); }};
}

}  // namespace nltrain::cli
