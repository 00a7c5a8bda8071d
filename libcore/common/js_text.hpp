#pragma once
// Numbers and lengths as the reference bp (JavaScript) writes them in its messages: String(n),
// n.toExponential(d), and a string's length in UTF-16 code units. Messages of bp and the verify
// library quote them so that their text equals the reference's.
#include <cstddef>
#include <string>
#include <string_view>

namespace common {

// JavaScript's String(number) ("NaN", "Infinity" for non-finite values).
[[nodiscard]] std::string js_number_text(double v);

// JavaScript's Number.prototype.toExponential(digits): "6.683908329e-4", "NaN", "-Infinity".
[[nodiscard]] std::string js_to_exponential(double v, int digits);

// The length of UTF-8 text in UTF-16 code units (JavaScript's string length); for ASCII text it
// equals the byte count.
[[nodiscard]] std::size_t utf16_units(std::string_view utf8);

}  // namespace common
