#include "common/python_float.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace common {

bool append_python_float(std::string& out, double v) {
  if (!std::isfinite(v)) return false;
  // Shortest round-trip digits in scientific form: "d[.ddd]e(+|-)XX", sign first when negative.
  char sci[40];
  const auto r = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  if (r.ec != std::errc()) return false;
  const char* p = sci;
  if (*p == '-') {
    out += '-';
    ++p;
  }
  char digits[20];
  int n = 0;
  for (; p < r.ptr && *p != 'e'; ++p) {
    if (*p != '.') digits[n++] = *p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), r.ptr, exponent);
  const int point = exponent + 1;  // digits are 0.d1d2... x 10^point
  if (point <= -4 || point > 16) {
    out += digits[0];
    if (n > 1) {
      out += '.';
      out.append(digits + 1, static_cast<std::size_t>(n - 1));
    }
    out += exponent < 0 ? "e-" : "e+";
    const int e = exponent < 0 ? -exponent : exponent;
    if (e < 10) out += '0';
    out += std::to_string(e);
  } else if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out.append(digits, static_cast<std::size_t>(n));
  } else if (point < n) {
    out.append(digits, static_cast<std::size_t>(point));
    out += '.';
    out.append(digits + point, static_cast<std::size_t>(n - point));
  } else {
    out.append(digits, static_cast<std::size_t>(n));
    out.append(static_cast<std::size_t>(point - n), '0');
    out += ".0";
  }
  return true;
}

}  // namespace common
