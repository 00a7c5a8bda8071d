// Rule 9: the parameter chain. For every record after the first, each parameters_before value
// must equal the previous record's parameters_after value for the same id, within the CURRENT
// record's numeric_policy.tolerance clamped to its ceiling (observer or engine, by its authoring
// state). Only the previous record's parameters_after is kept between records.
//
// Field paths are "parameters_before.<id>" without a record prefix, as the reference prints them.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/core_js.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

// What Rule 9 reads of a record: as the current record, its effective tolerance and its
// parameters_before numbers (in JavaScript's member order); as the prior one, its
// parameters_after numbers by id.
struct ChainNotes final : RecordNotes {
  bool is_object = false;
  std::optional<Tolerance> tolerance;  // the declared one, clamped to the record's ceiling
  bool has_before = false;             // parameters_before is truthy and an object or array
  std::vector<std::pair<std::string, std::optional<double>>> before;
  bool has_after = false;              // parameters_after is truthy and an object or array
  // Only when it is an object, sorted by id (one allocation a record, not one per parameter).
  std::vector<std::pair<std::string, std::optional<double>>> after;
};

class ParameterChain final : public CrossRecordRule {
 public:
  std::unique_ptr<RecordNotes> notes(const ReadReceipt& read) const override {
    const Json& r = read.root();
    auto n = std::make_unique<ChainNotes>();
    if (!r.is_object()) return n;
    n->is_object = true;
    const Json* policy = member(r, "numeric_policy");
    const Json* declared = policy ? member(*policy, "tolerance") : nullptr;
    if (const auto tolerance = declared ? read_tolerance_policy(*declared) : std::nullopt) {
      n->tolerance = clamp_tolerance(*tolerance, numeric_ceiling_for(r)).effective;
    }
    const Json* before_map = member(r, "parameters_before");
    if (core::truthy(before_map) && js_object(*before_map)) {
      n->has_before = true;
      for (const auto& [id, value] : js_members(before_map)) n->before.emplace_back(std::string(id), as_number(value));
    }
    const Json* after = member(r, "parameters_after");
    if (core::truthy(after) && js_object(*after)) {
      n->has_after = true;
      if (after->is_object()) {  // its keys are distinct (the reader keeps a repeated key's last value)
        n->after.reserve(after->size());
        for (const auto& [id, value] : after->members()) n->after.emplace_back(std::string(id), as_number(value));
        std::sort(n->after.begin(), n->after.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      }
    }
    return n;
  }

  void observe(std::size_t index, RecordNotes& notes) override {
    auto& n = static_cast<ChainNotes&>(notes);
    if (index > 0) check(n);
    // Copied into the storage kept, not moved: the notes' buffers are freed with their record by
    // the thread that prepared it (--jobs), and the kept one by this one, each its own.
    prior_after_.assign(n.after.begin(), n.after.end());
    has_prior_after_ = n.has_after;
  }

  void finish(FailureSink& out) override { failures_.flush(out); }

  std::size_t retained_state() const override { return failures_.kept() + prior_after_.size(); }

 private:
  void check(const ChainNotes& cur) {
    if (!cur.is_object || !has_prior_after_ || !cur.tolerance || !cur.has_before) return;
    const Tolerance tol = *cur.tolerance;
    for (const auto& [id, before] : cur.before) {
      // An array parameters_after holds no ids worth chaining (prior_after_ is empty then).
      const auto it = std::lower_bound(prior_after_.begin(), prior_after_.end(), id,
                                       [](const auto& entry, const std::string& key) { return entry.first < key; });
      if (!before || it == prior_after_.end() || it->first != id || !it->second) continue;
      const double after = *it->second;
      const auto c = check_tolerance(*before, after, tol);
      if (c.ok) continue;
      const std::string path = "parameters_before." + id;
      std::string message =
          c.finite ? "Multi-step chain violation: " + path + " disagrees with prior step's parameters_after." + id +
                         " (delta=" + js_number(c.delta) + ", tolerance=" + js_number(c.applied) + ")."
                   : "Multi-step chain non-finite value at " + path + ": before=" + js_number(*before) +
                         ", prior parameters_after=" + js_number(after) + ".";
      failures_.add(numeric_failure(9, path, *before, after, c, std::move(message), id));
    }
  }

  std::vector<std::pair<std::string, std::optional<double>>> prior_after_;  // sorted by id
  bool has_prior_after_ = false;
  CappedFailures failures_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_09_parameter_chain() { return std::make_unique<ParameterChain>(); }

}  // namespace reconcile::rules
