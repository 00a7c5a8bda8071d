#include "common/js_json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "common/json_string.hpp"

namespace common {

std::string js_string(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return js_number_to_string(v);
}

std::string js_number_to_string(double v) {
  if (std::isnan(v) || std::isinf(v)) return "null";  // JSON.stringify's spelling of non-finite numbers
  if (v == 0) return "0";
  std::string out = v < 0 ? "-" : "";
  char buf[64];
  // Shortest round-trip digits, scientific: "d.ddde+XX".
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  const auto e_pos = sci.find('e');
  std::string digits = sci.substr(0, e_pos);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the decimal point
  const int exp10 = std::atoi(sci.c_str() + e_pos + 1);
  const int k = static_cast<int>(digits.size());
  const int n = exp10 + 1;  // value = digits x 10^(n-k)
  if (k <= n && n <= 21) {
    out += digits + std::string(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    const int e = n - 1;
    out += digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += std::string("e") + (e < 0 ? "-" : "+") + std::to_string(std::abs(e));
  }
  return out;
}

namespace {

void write_value(std::string& out, const nlohmann::ordered_json& v, int indent, int depth) {
  // JSON.stringify(v) with no indent: no newlines, no space after ':'.
  const bool compact = indent <= 0;
  const std::string inner(static_cast<std::size_t>(indent * (depth + 1)), ' ');
  const std::string outer(static_cast<std::size_t>(indent * depth), ' ');
  switch (v.type()) {
    case nlohmann::json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out += compact ? "{" : "{\n";
      bool first = true;
      for (const auto& [key, item] : v.items()) {
        if (!first) out += compact ? "," : ",\n";
        first = false;
        out += inner;
        append_json_string(out, key);
        out += compact ? ":" : ": ";
        write_value(out, item, indent, depth + 1);
      }
      out += compact ? "}" : "\n" + outer + "}";
      return;
    }
    case nlohmann::json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += compact ? "[" : "[\n";
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += compact ? "," : ",\n";
        out += inner;
        write_value(out, v[i], indent, depth + 1);
      }
      out += compact ? "]" : "\n" + outer + "]";
      return;
    }
    case nlohmann::json::value_t::string: append_json_string(out, v.get_ref<const std::string&>()); return;
    case nlohmann::json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case nlohmann::json::value_t::number_integer: out += std::to_string(v.get<std::int64_t>()); return;
    case nlohmann::json::value_t::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); return;
    case nlohmann::json::value_t::number_float: out += js_number_to_string(v.get<double>()); return;
    default: out += "null"; return;
  }
}

}  // namespace

std::string js_stringify_pretty(const nlohmann::ordered_json& value, int indent) {
  std::string out;
  write_value(out, value, indent, 0);
  return out;
}

}  // namespace common
