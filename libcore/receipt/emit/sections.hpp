#pragma once
// Section writers of the two receipt layouts (v0.1.0 Mazur, v0.2.0+ general).
// Internal to receipt::emit; emit_receipt.cpp dispatches between them.
#include "receipt/emit/object_writer.hpp"

namespace receipt::emit {

[[nodiscard]] Status write_mazur_receipt(ObjectWriter& w, const ojson& r);
[[nodiscard]] Status write_general_receipt(ObjectWriter& w, const ojson& r);
// Policy blocks of the general layout (also used by the typed writer, general_receipt_writer.cpp).
[[nodiscard]] Status write_numeric_policy(ObjectWriter& w, const ojson& policy);
[[nodiscard]] Status write_bias_policy(ObjectWriter& w, const ojson& policy);

// Pieces both layouts share (same bytes in every version).
[[nodiscard]] Status write_named_factors(ObjectWriter& w, const ojson& factors);
[[nodiscard]] Status write_output_error_signal(ObjectWriter& w, const ojson& s);
[[nodiscard]] Status write_hidden_error_signal(ObjectWriter& w, const ojson& s);
[[nodiscard]] Status write_forward_unit(ObjectWriter& w, const ojson& u);

}  // namespace receipt::emit
