#pragma once
// Canonical receipt numbers (byte-compatible with backprop-trace 1.0.0).
//
// format_receipt_number(v):
//   1. NaN / +-Inf -> Error(malformed).  -0 and 0 -> "0.000000000".
//   2. v is printed to 17 significant digits, ties rounded AWAY from zero
//      (ECMA-262 toPrecision; not printf's ties-to-even).
//   3. That 17-digit decimal is rounded half-to-even to 9 significant digits,
//      zero padded, never an exponent: 0.5 -> "0.500000000", 1 -> "1.00000000",
//      0.05 -> "0.0500000000", 1e-12 -> "0.00000000000100000000".
//   4. Range: the 17-digit string's leading digit must sit at decimal exponent
//      -13..6 (so |v| >= ~1e-13 and |v| < 1e7) and the 9-digit result must stay
//      below 1e7; otherwise Error(malformed) whose message starts with
//      "PLAIN_DECIMAL_OUT_OF_SCOPE".
//   Locale-independent (std::to_chars), deterministic, no allocation beyond the result.
//
// format_policy_decimal(s): the policy formatter, decimal string in, same
//   9-digit output. Errors: message starts with "NON_PLAIN_DECIMAL_INPUT" when s
//   does not match ^-?(0|[1-9][0-9]*)(\.[0-9]+)?$, "PLAIN_DECIMAL_OUT_OF_SCOPE"
//   when the magnitude is outside the range above. policy_error_kind() reads it back.
//
// format_receipt_integer(v): JavaScript String(v) of an integral double
//   (e.g. 3 -> "3", 2^60 -> "1152921504606847000"); Error unless finite & integral.
#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace common {

inline constexpr int kReceiptSignificantDigits = 9;
// Decimal exponent of the leading digit must lie in [min, max_exclusive).
inline constexpr int kPlainDecimalMinExponent = -13;
inline constexpr int kPlainDecimalMaxExponentExclusive = 7;

enum class PolicyErrorKind { none, non_plain_decimal_input, plain_decimal_out_of_scope };

[[nodiscard]] Result<std::string> format_receipt_number(double v);
// The same spelling appended to `out` (nothing appended on error); no allocation in the common case.
[[nodiscard]] Status append_receipt_number(std::string& out, double v);
// For writers that keep their own cursor: the same spelling written to `buf` (room for
// kReceiptNumberMaxChars), returning the count; 0 (nothing written) where append_receipt_number
// must decide (an error, or a value off the allocation-free path).
inline constexpr std::size_t kReceiptNumberMaxChars = 32;
[[nodiscard]] std::size_t write_receipt_number_fast(char* buf, double v);
[[nodiscard]] Result<std::string> format_policy_decimal(std::string_view decimal);
[[nodiscard]] Result<std::string> format_receipt_integer(double v);

// The 17-significant-digit, ties-away-from-zero spelling that step 2 above uses,
// as JavaScript's v.toPrecision(17) prints it (plain or with "e+N"/"e-N").
[[nodiscard]] std::string to_precision_17(double v);

[[nodiscard]] PolicyErrorKind policy_error_kind(const Error& e);

}  // namespace common
