#include "common/js_text.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/js_json_text.hpp"

namespace common {

std::string js_number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  return js_number_to_string(v);
}

std::string js_to_exponential(double v, int digits) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  std::string sign = v < 0 ? "-" : "";
  v = std::fabs(v);
  int exponent = 0;
  std::string mantissa(static_cast<std::size_t>(digits) + 1, '0');
  if (v != 0) {
    // The exact decimal expansion of the double (at most 767 significant digits), then rounding
    // half away from zero at `digits` decimals, as ECMAScript specifies (printf rounds half to even).
    std::array<char, 1100> buf{};
    std::snprintf(buf.data(), buf.size(), "%.780e", v);
    const std::string exact(buf.data());
    const auto e_pos = exact.find('e');
    exponent = std::atoi(exact.c_str() + e_pos + 1);
    std::string all = exact.substr(0, 1) + exact.substr(2, e_pos - 2);
    mantissa = all.substr(0, static_cast<std::size_t>(digits) + 1);
    if (all[static_cast<std::size_t>(digits) + 1] >= '5') {
      int i = digits;
      while (i >= 0 && mantissa[static_cast<std::size_t>(i)] == '9') mantissa[static_cast<std::size_t>(i--)] = '0';
      if (i >= 0) {
        ++mantissa[static_cast<std::size_t>(i)];
      } else {
        mantissa.insert(mantissa.begin(), '1');
        mantissa.pop_back();
        ++exponent;
      }
    }
  }
  std::string out = sign + mantissa.substr(0, 1);
  if (digits > 0) out += "." + mantissa.substr(1);
  out += exponent < 0 ? "e-" : "e+";
  out += std::to_string(std::abs(exponent));
  return out;
}

std::size_t utf16_units(std::string_view utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++n;  // a lead byte starts a code point
    if (c >= 0xF0) ++n;           // four-byte sequences need a surrogate pair
  }
  return n;
}

}  // namespace common
