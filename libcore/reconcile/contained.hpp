#pragma once
// The reconciler's boundary: its entry points are noexcept and every verdict is data, so the one
// thing that can still escape a rule (out of memory, or a failure while reporting one) becomes a
// Rule 0 failure at `field_path` here, and nowhere else.
#include <string>
#include <utility>

#include "reconcile/failure.hpp"

namespace reconcile {

template <typename Body>
[[nodiscard]] Result contained(const char* field_path, const char* what, Body&& body) noexcept {
  try {
    return std::forward<Body>(body)();
  } catch (...) {
    Result r;
    r.ok = false;
    r.failures_dropped = 1;  // when even the failure cannot be stored
    try {
      Failure f;
      f.rule = 0;
      f.field_path = field_path;
      f.message = std::string(what) + " could not be reconciled: out of memory while inspecting it.";
      r.failures.push_back(std::move(f));
      r.failures_dropped = 0;
    } catch (...) {
    }
    return r;
  }
}

}  // namespace reconcile
