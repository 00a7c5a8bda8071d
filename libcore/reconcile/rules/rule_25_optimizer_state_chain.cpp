// Rule 25: the optimizer-state chain, the Rule 9 analogue for optimizer state. For adjacent records
// that both run Adam/AdamW, each Adam update's state_before {m, v} equals the previous record's
// state_after for that parameter, and optimizer_config.t advances by exactly 1; for adjacent
// sgd_momentum records, state_before.buffer equals the previous state_after.buffer. Tolerance: the
// current record's numeric_policy.tolerance clamped to the engine ceiling (as the reference does
// for this rule, whatever the authoring state). Kept between records: the previous record's
// optimizer name and t and its per-parameter state_after values.
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/optim_updates.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct StepState {
  bool valid = false;  // an object record with an optimizer_config
  std::string name;
  std::optional<double> t;
  std::unordered_map<std::string, std::pair<double, double>> adam;  // parameter key -> (m, v), NaN when not a number
  std::unordered_map<std::string, double> momentum;                 // parameter key -> buffer
};

// Map keys distinguish JSON types the way a JavaScript Map does (1 and "1" differ).
std::string parameter_key(const Json& update) {
  const Json* id = member(update, "parameter_id");
  return id ? id->dump() : std::string("undefined");
}

// One update's state_before, as the chain check reads it.
struct StateBefore {
  std::size_t j = 0;                  // the update's index
  std::optional<std::string> name;    // update_optimizer_name
  std::optional<std::string> pid;     // update_parameter_id
  std::string key;                    // parameter_key
  std::optional<double> buffer;       // a number buffer
  double m = kNaN, v = kNaN;          // strict numbers
};

// What Rule 25 reads of a record: as the prior record, its state summary; as the current one,
// its tolerance (clamped to the engine ceiling) and every non-null update's truthy state_before.
struct StateNotes final : RecordNotes {
  StepState state;
  std::optional<Tolerance> tolerance;
  std::vector<StateBefore> befores;
};

class OptimizerStateChain final : public CrossRecordRule {
 public:
  std::unique_ptr<RecordNotes> notes(const ReadReceipt& read) const override {
    const Json& r = read.root();
    auto n = std::make_unique<StateNotes>();
    n->state = summarize(r);
    if (!n->state.valid) return n;
    const Json* policy = member(r, "numeric_policy");
    const Json* declared = policy ? member(*policy, "tolerance") : nullptr;
    if (const auto tolerance = declared ? read_tolerance_policy(*declared) : std::nullopt) {
      n->tolerance = clamp_tolerance(*tolerance, kNumericCeiling).effective;
    }
    const Json* updates = array_member(r, "updates");
    if (!updates) return n;
    for (std::size_t j = 0; j < updates->size(); ++j) {
      const Json& u = (*updates)[j];
      if (u.is_null()) continue;
      const Json* before = member(member(u, "optimizer"), "state_before");
      if (!core::truthy(before)) continue;
      StateBefore b;
      b.j = j;
      if (const auto name = update_optimizer_name(u)) b.name = *name;
      b.pid = update_parameter_id(u);
      b.key = parameter_key(u);
      b.buffer = number_member(*before, "buffer");
      b.m = strict_number(member(*before, "m"));
      b.v = strict_number(member(*before, "v"));
      n->befores.push_back(std::move(b));
    }
    return n;
  }

  void observe(std::size_t index, RecordNotes& notes) override {
    auto& n = static_cast<StateNotes&>(notes);
    if (index > 0 && prev_.valid && n.state.valid) check(index, n);
    // Copied into the state kept (its maps' nodes reused), not moved: the notes are freed with
    // their record by the thread that prepared it (--jobs), the kept state by this one.
    prev_ = n.state;
  }

  void finish(FailureSink& out) override { failures_.flush(out); }

  std::size_t retained_state() const override { return failures_.kept() + prev_.adam.size() + prev_.momentum.size(); }

 private:
  static StepState summarize(const Json& r) {
    StepState s;
    if (!r.is_object()) return s;
    const auto oc = read_optimizer_config(r);
    if (!oc) return s;
    s.valid = true;
    s.name = oc->name;
    s.t = oc->t;
    const Json* updates = array_member(r, "updates");
    if (!updates) return s;
    for (const auto& u : *updates) {
      if (u.is_null()) continue;  // (the per-record rules report it)
      const auto name = update_optimizer_name(u);
      if (!is_stateful_name(name)) continue;
      const Json* after = member(*member(u, "optimizer"), "state_after");
      if (!core::truthy(after)) continue;
      if (is_adam_name(name)) {
        s.adam.insert_or_assign(parameter_key(u), std::pair{strict_number(member(*after, "m")), strict_number(member(*after, "v"))});
      } else if (const auto buffer = number_member(*after, "buffer")) {
        s.momentum.insert_or_assign(parameter_key(u), *buffer);
      }
    }
    return s;
  }

  void check(std::size_t i, const StateNotes& cur) {
    const std::string& name_now = cur.state.name;
    const bool adam_pair = (name_now == "adam" || name_now == "adamw") && (prev_.name == "adam" || prev_.name == "adamw");
    const bool momentum_pair = name_now == "sgd_momentum" && prev_.name == "sgd_momentum";
    if (!adam_pair && !momentum_pair) return;
    if (!cur.tolerance) return;
    const Tolerance tol = *cur.tolerance;
    const std::string at = "receipts[" + std::to_string(i) + "]";
    const std::string prev_at = "receipts[" + std::to_string(i - 1) + "]";
    for (const StateBefore& b : cur.befores) {
      const auto name = b.name ? std::optional<std::string_view>(*b.name) : std::nullopt;
      if (adam_pair ? !is_adam_name(name) : !(name && *name == "sgd_momentum")) continue;
      const std::string path = at + ".updates[" + std::to_string(b.j) + "].optimizer.state_before";
      const std::string label = b.pid ? *b.pid : b.key;
      if (momentum_pair && !b.buffer) continue;
      const bool found = adam_pair ? prev_.adam.count(b.key) > 0 : prev_.momentum.count(b.key) > 0;
      if (!found) {
        failures_.add(plain_failure(25, path,
                                    "Rule 25 (optimizer-state chain): parameter '" + label + "' has state_before at step " +
                                        std::to_string(i) + " but no matching state_after at prior step " +
                                        std::to_string(i - 1) + ". Every " + (adam_pair ? "Adam/AdamW" : "sgd_momentum") +
                                        " parameter's state must chain forward.",
                                    b.pid));
        continue;
      }
      auto compare = [&](const char* field, double prior, double stored) {
        const auto c = check_tolerance(prior, stored, tol);
        if (c.ok) return;
        failures_.add(numeric_failure(25, path + "." + field, stored, prior, c,
                                      "Rule 25 (optimizer-state chain): " + path + "." + field + "=" + js_number(stored) +
                                          " does not match " + prev_at + ".state_after." + field + "=" +
                                          js_number(prior) + " for parameter '" + label + "'.",
                                      b.pid));
      };
      if (adam_pair) {
        const auto& [m, v] = prev_.adam.at(b.key);
        compare("m", m, b.m);
        compare("v", v, b.v);
      } else {
        compare("buffer", prev_.momentum.at(b.key), *b.buffer);
      }
    }
    const auto& t_now = cur.state.t;
    if (adam_pair && t_now && prev_.t) {
      const double expected = *prev_.t + 1;
      if (*t_now != expected) {
        Failure f = plain_failure(25, at + ".optimizer_config.t",
                                  "Rule 25 (optimizer-state chain): " + at + ".optimizer_config.t=" + js_number(*t_now) +
                                      " but " + prev_at + ".optimizer_config.t=" + js_number(*prev_.t) +
                                      " (expected t to increment by 1 = " + js_number(expected) + ").");
        f.stored = *t_now;
        f.recomputed = expected;
        f.delta = std::fabs(*t_now - expected);
        failures_.add(std::move(f));
      }
    }
  }

  StepState prev_;
  CappedFailures failures_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_25_optimizer_state_chain() { return std::make_unique<OptimizerStateChain>(); }

}  // namespace reconcile::rules
