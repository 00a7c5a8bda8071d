#pragma once
// What every per-record rule receives: the receipt, the clamped tolerance, where to put its
// failures, and the cascade tracker (Rules 5-7 label a failure as a cascade of an upstream rule
// that already failed on the same parameter).
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reconcile/failure.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/tolerance.hpp"

namespace reconcile {

class CascadeTracker {
 public:
  void record(int rule, const std::string& parameter_id) { failed_[parameter_id] |= 1u << rule; }
  // The first of `candidates` (in the order given) that already failed on parameter_id.
  [[nodiscard]] std::optional<int> prior(const std::string& parameter_id, std::initializer_list<int> candidates) const {
    const auto it = failed_.find(parameter_id);
    if (it == failed_.end()) return std::nullopt;
    for (int c : candidates) {
      if (it->second & (1u << c)) return c;
    }
    return std::nullopt;
  }

 private:
  std::unordered_map<std::string, unsigned> failed_;
};

class FailureSink {
 public:
  explicit FailureSink(Result& result) : result_(result) {}
  void add(Failure f) {
    if (result_.failures.size() < kMaxFailures) {
      result_.failures.push_back(std::move(f));
    } else {
      ++result_.failures_dropped;
    }
  }
  [[nodiscard]] bool empty() const { return result_.failures.empty() && result_.failures_dropped == 0; }
  [[nodiscard]] std::size_t count() const { return result_.failures.size() + result_.failures_dropped; }

 private:
  Result& result_;
};

struct RuleContext {
  const Json& receipt;         // read.root()
  const ReadReceipt& read;     // the trees some rules hand on (the engine input, the canonical emitter)
  Tolerance tolerance;  // numeric_policy.tolerance, already clamped to the ceiling
  FailureSink& failures;
  CascadeTracker& cascades;
  bool derive_every_record = false;  // Options::derive_every_record
  bool term_scaled_sums = false;     // Options::term_scaled_sums
  bool engine_labels = false;        // Options::engine_labels
};

}  // namespace reconcile
