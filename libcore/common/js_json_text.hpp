#pragma once
// JSON text exactly as JavaScript's JSON.stringify(value, null, indent) writes it: the spelling
// of author-facing files (`bp scaffold topology`), not of receipts (those are canonical, see
// receipt/emit). Doubles use ECMAScript Number::toString (shortest round-trip digits; exponent
// form below 1e-6 and from 1e21: 1e-7, 1.5e+21); -0 prints as 0; strings as common::json_string.
#include <string>

#include <nlohmann/json.hpp>

namespace common {

[[nodiscard]] std::string js_number_to_string(double v);
// JavaScript's String(v): js_number_to_string's digits, and NaN, Infinity, -Infinity by name (what
// messages that quote a number print; JSON text has null there).
[[nodiscard]] std::string js_string(double v);
// indent 0: JSON.stringify(value) (no whitespace at all).
[[nodiscard]] std::string js_stringify_pretty(const nlohmann::ordered_json& value, int indent);
[[nodiscard]] inline std::string js_stringify(const nlohmann::ordered_json& value) { return js_stringify_pretty(value, 0); }

}  // namespace common
