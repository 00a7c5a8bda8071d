// Rule 26: optimizer-config constancy, gated on any record of a bundle of two or more having an
// optimizer_config. Then every record has one (else the first record without it is the finding),
// and every record's name and hyperparameters equal the first record's: adam/adamw {beta1, beta2,
// epsilon, weight_decay}, sgd_momentum {momentum, nesterov, dampening, weight_decay}, sgd
// {weight_decay}. learning_rate (schedules) and t (Rule 25) are excluded. Kept between records:
// the first record's config and the findings so far (capped), dropped once a record without a
// config decides the verdict.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

// A hyperparameter as read for the comparison: numbers only for the numeric ones, any JSON value
// (null included) for nesterov / dampening. Absent = undefined.
struct Hyper {
  std::optional<Tree> value;  // kept beyond its record
  bool is_value_type = true;  // false for objects / arrays, which are === only to themselves
};

Hyper read_hyper(const OptimizerConfigView& oc, std::string_view key) {
  Hyper h;
  auto number = [&](const std::optional<double>& v) {
    if (v) h.value = Tree(*v);
  };
  if (key == "beta1") number(oc.beta1);
  if (key == "beta2") number(oc.beta2);
  if (key == "epsilon") number(oc.epsilon);
  if (key == "weight_decay") number(oc.weight_decay);
  if (key == "momentum") number(oc.momentum);
  const Json* raw = key == "nesterov" ? oc.nesterov : key == "dampening" ? oc.dampening : nullptr;
  if (raw) {
    h.value = to_tree(*raw);
    h.is_value_type = !(raw->is_object() || raw->is_array());
  }
  return h;
}

// A kept value read as the rules read a receipt's.
std::string js_string_of(const std::optional<Tree>& v) {
  if (!v) return js_string(nullptr);
  const ReadReceipt read(*v);
  return js_string(&read.root());
}

std::vector<std::string_view> constancy_keys(const std::string& name) {
  if (name == "adam" || name == "adamw") return {"beta1", "beta2", "epsilon", "weight_decay"};
  if (name == "sgd_momentum") return {"momentum", "nesterov", "dampening", "weight_decay"};
  if (name == "sgd") return {"weight_decay"};
  return {};
}

std::string join(const std::vector<std::string_view>& keys) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + std::string(keys[i]);
  return out;
}

// What Rule 26 reads of a record: whether it has an optimizer_config, its name, and the
// hyperparameters of that name's constancy keys.
struct ConfigNotes final : RecordNotes {
  bool has_config = false;
  std::string name;
  std::vector<Hyper> values;  // constancy_keys(name), in order
};

class OptimizerConfigConstancy final : public CrossRecordRule {
 public:
  std::unique_ptr<RecordNotes> notes(const ReadReceipt& read) const override {
    const Json& r = read.root();
    auto n = std::make_unique<ConfigNotes>();
    const std::optional<OptimizerConfigView> oc = r.is_object() ? read_optimizer_config(r) : std::nullopt;
    if (!oc) return n;
    n->has_config = true;
    n->name = oc->name;
    for (auto key : constancy_keys(oc->name)) n->values.push_back(read_hyper(*oc, key));
    return n;
  }

  void observe(std::size_t index, RecordNotes& notes) override {
    auto& n = static_cast<ConfigNotes&>(notes);
    ++records_;
    if (n.has_config) any_declared_ = true;
    if (!n.has_config) {
      if (!first_missing_) {
        first_missing_ = index;
        failures_.clear();  // the missing config is the one finding
      }
      return;
    }
    if (first_missing_) return;
    if (index == 0) {
      first_name_ = n.name;
      keys_ = constancy_keys(n.name);
      first_values_ = std::move(n.values);
      return;
    }
    const std::string at = "receipts[" + std::to_string(index) + "].optimizer_config";
    if (n.name != first_name_) {
      failures_.add(plain_failure(26, at + ".name",
                                  "Rule 26 (optimizer-config constancy): " + at + ".name='" + n.name +
                                      "' differs from receipts[0].optimizer_config.name='" + first_name_ +
                                      "'. A training run cannot switch optimizers mid-stream."));
      return;
    }
    for (std::size_t k = 0; k < keys_.size(); ++k) {
      const Hyper& a = first_values_[k];
      const Hyper& b = n.values[k];
      const bool equal = (!a.value && !b.value) ||
                         (a.value && b.value && a.is_value_type && b.is_value_type && js_strict_equal(&*a.value, &*b.value));
      if (equal) continue;
      const Tree* av = a.value ? &*a.value : nullptr;
      const Tree* bv = b.value ? &*b.value : nullptr;
      Failure f = plain_failure(26, at + "." + std::string(keys_[k]),
                                "Rule 26 (optimizer-config constancy): " + at + "." + std::string(keys_[k]) + "=" +
                                    js_string_of(b.value) + " differs from receipts[0].optimizer_config." +
                                    std::string(keys_[k]) + "=" + js_string_of(a.value) + ". For optimizer.name='" +
                                    first_name_ + "' the constancy key list is [" + join(keys_) +
                                    "]; all MUST be IDENTICAL across a multi-step bundle (learning_rate and t excluded).");
      const auto an = as_number(av);
      const auto bn = as_number(bv);
      f.stored = bn.value_or(0);
      f.recomputed = an.value_or(0);
      f.delta = an && bn ? std::fabs(*an - *bn) : 0;
      failures_.add(std::move(f));
    }
  }

  void finish(FailureSink& out) override {
    if (records_ < 2 || !any_declared_) return;
    if (first_missing_) {
      out.add(plain_failure(26, "receipts[" + std::to_string(*first_missing_) + "].optimizer_config",
                            "Rule 26 (optimizer-config constancy): receipts[" + std::to_string(*first_missing_) +
                                "] is missing optimizer_config but other receipts in the bundle declare it. Either all "
                                "receipts in a multi-step bundle carry optimizer_config or none."));
      return;
    }
    failures_.flush(out);
  }

  std::size_t retained_state() const override { return failures_.kept() + first_values_.size(); }

 private:
  std::size_t records_ = 0;
  bool any_declared_ = false;
  std::optional<std::size_t> first_missing_;
  std::string first_name_;
  std::vector<std::string_view> keys_;
  std::vector<Hyper> first_values_;
  CappedFailures failures_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_26_optimizer_config_constancy() {
  return std::make_unique<OptimizerConfigConstancy>();
}

}  // namespace reconcile::rules
