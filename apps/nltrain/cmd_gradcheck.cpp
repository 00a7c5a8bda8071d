// nltrain gradcheck: tape vs hand-written backward vs finite differences, per parameter.
#include <iostream>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "nl/gradcheck.hpp"

namespace nltrain {
namespace {

struct GradcheckOptions {
  std::string rule = "delta";
  std::size_t levels = 1;
  bool stress = false, fp64 = false, json = false, all = false;
};

int run_gradcheck(const GradcheckOptions& o) {
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
  bool all_passed = true;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (nl::RuleKind rule : rules) {
    auto rep = nl::gradcheck(opaque_registry(), {rule, o.levels, o.stress, o.fp64});
    if (!rep.ok()) return report(rep.error());
    all_passed = all_passed && rep->passed();
    const std::string protocol = std::string(o.fp64 ? "fp64 FD every entry, eps 1e-6, rel 1e-4"
                                                    : "fp32 FD 20 sampled entries per tensor, eps 1e-2, rel 0.10, floor 5e-4") +
                                 (o.stress ? "; stress: biases 0, weights x3, random context, alternate levels frozen" : "");
    if (o.json) {
      nlohmann::ordered_json j{{"rule", short_rule_name(rule)}, {"levels", o.levels}, {"stress", o.stress}, {"fp64", o.fp64},
                               {"protocol", protocol}, {"loss", rep->loss}, {"passed", rep->passed()}};
      j["active"] = rep->active;
      j["tensors"] = nlohmann::ordered_json::array();
      for (const nl::TensorCheck& t : rep->tensors) {
        j["tensors"].push_back({{"name", t.name}, {"size", t.size}, {"frozen", t.frozen}, {"max_abs_grad", t.max_abs_grad},
                                {"tape_vs_hand_rel", t.tape_vs_hand}, {"tape_failed", t.tape_failed},
                                {"fd_checked", t.fd_checked}, {"fd_failed", t.fd_failed}, {"fd_worst_rel", t.fd_worst_rel},
                                {"passed", t.passed()}, {"first_failure", t.first_failure}});
      }
      out.push_back(std::move(j));
      continue;
    }
    std::cout << fmt::format("gradcheck {} K={}{}{}: {} ({})\n", short_rule_name(rule), o.levels, o.stress ? " --stress" : "",
                             o.fp64 ? " --fp64" : "", rep->passed() ? "PASS" : "FAIL", protocol);
    std::cout << fmt::format("  {:<22} {:>5} {:>11} {:>12} {:>8} {:>12}  {}\n", "parameter", "size", "max |grad|",
                             "tape~hand", "FD n", "FD worst rel", "status");
    for (const nl::TensorCheck& t : rep->tensors) {
      std::cout << fmt::format("  {:<22} {:>5} {:>11.3e} {:>12.3e} {:>8} {:>12.3e}  {}{}\n", t.name + (t.frozen ? "*" : ""),
                               t.size, t.max_abs_grad, t.tape_vs_hand, t.fd_checked, t.fd_worst_rel,
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
  cmd->add_option("--rule", o->rule, "Memory rule (default delta)");
  cmd->add_flag("--all-rules", o->all, "Check all nine rules");
  cmd->add_option("--levels", o->levels, "CMS levels K (default 1)");
  cmd->add_flag("--stress", o->stress, "Stress variant: gate biases 0, weights x3, random memory, frozen levels");
  cmd->add_flag("--fp64", o->fp64, "Finite differences in double precision on every entry");
  cmd->add_flag("--json", o->json, "Report as JSON");
  return {cmd, [o] { return run_gradcheck(*o); }};
}

}  // namespace nltrain
