#include "reconcile/rules/multi_common.hpp"

namespace reconcile::rules {

void CappedFailures::flush(FailureSink& out) {
  for (auto& f : kept_) out.add(std::move(f));
  for (std::size_t i = 0; i < dropped_; ++i) out.add(Failure{});  // the sink counts past its own cap
  clear();
}

bool js_strict_equal(const Json* a, const Json* b) noexcept {
  if (!a || !b) return a == b;
  if (a == b) return true;
  if (a->is_number() && b->is_number()) return a->get<double>() == b->get<double>();
  if (a->is_string() && b->is_string()) return a->string() == b->string();
  if (a->is_boolean() && b->is_boolean()) return a->get<bool>() == b->get<bool>();
  if (a->is_null() && b->is_null()) return true;
  return false;
}

bool js_strict_equal(const Tree* a, const Tree* b) noexcept {
  if (!a || !b) return a == b;
  if (a == b) return true;
  if (a->is_number() && b->is_number()) return a->get<double>() == b->get<double>();
  if (a->is_string() && b->is_string()) return a->get_ref<const std::string&>() == b->get_ref<const std::string&>();
  if (a->is_boolean() && b->is_boolean()) return a->get<bool>() == b->get<bool>();
  if (a->is_null() && b->is_null()) return true;
  return false;
}

std::size_t retained_elements(const Tree& v) noexcept {
  if (v.is_object() || v.is_array()) {
    std::size_t n = 1;
    for (const auto& e : v) n += retained_elements(e);
    return n;
  }
  return 1;
}

}  // namespace reconcile::rules
