#include "receipt/emit/sections.hpp"

namespace receipt::emit {

Status write_forward_unit(ObjectWriter& w, const ojson& u) { return w.object(u, general::forward_unit); }

Status write_named_factors(ObjectWriter& w, const ojson& factors) {
  return w.array(factors, [&w](const ojson& f) { return w.object(f, general::named_factor); });
}

Status write_output_error_signal(ObjectWriter& w, const ojson& s) {
  return w.object(s, general::output_error_signal, [&w](std::string_view key, const ojson& v) -> Status {
    if (key == "factors") return write_named_factors(w, v);
    // dual_form
    return w.object(v, general::dual_form, [&w](std::string_view, const ojson& terms) {
      return w.array(terms, [&w](const ojson& t) {
        return w.object(t, general::jacobian_term,
                        [&w](std::string_view, const ojson& f) { return write_named_factors(w, f); });
      });
    });
  });
}

Status write_hidden_error_signal(ObjectWriter& w, const ojson& s) {
  return w.object(s, general::hidden_error_signal, [&w](std::string_view, const ojson& contributions) {
    return w.array(contributions, [&w](const ojson& c) { return w.object(c, general::downstream_contribution); });
  });
}

}  // namespace receipt::emit
