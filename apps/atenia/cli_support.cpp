#include "cli_support.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "checked_stdout.hpp"
#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace atenia::cli {

int exit_code_for(common::ErrorCode code) {
  return code == common::ErrorCode::invalid_argument ? kExitInvalidArgument : kExitMalformedOrIo;
}

int report(const common::Error& e) {
  std::cerr << "atenia: " << e.to_string() << "\n";
  return exit_code_for(e.code());
}

common::Status write_output(const std::string& path, std::string_view text) {
  if (path == "-") {
    std::cout << text;
    if (const int err = flush_stdout(); err != 0) {
      return common::Error::io(std::string("cannot write to stdout: ") + std::strerror(err));
    }
    return {};
  }
  return common::write_file_atomic(common::real_file_system(), path, text);
}

std::string input_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

common::Result<std::string> read_input_text(const std::string& path, std::size_t max_bytes) {
  if (path != "-") return common::read_text(common::real_file_system(), path, max_bytes);
  std::string text;
  char buf[65536];
  while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(std::cin.gcount()));
    if (text.size() > max_bytes) {
      return common::Error::io("<stdin>: input is larger than " + std::to_string(max_bytes) + " bytes");
    }
  }
  if (std::cin.bad()) return common::Error::io("<stdin>: cannot read");
  return text;
}

common::Result<nlohmann::ordered_json> read_json_input(const std::string& path) {
  auto text = read_input_text(path, common::kMaxJsonInputBytes);
  if (!text) return text.error();
  return common::parse_json_text(*text, {.file = input_name(path), .bom = common::BomPolicy::strip});
}

common::Result<std::vector<common::JsonlRecord>> read_jsonl_input(const std::string& path) {
  auto text = read_input_text(path, common::kMaxJsonInputBytes);
  if (!text) return text.error();
  return common::parse_jsonl_text(*text, {.file = input_name(path), .bom = common::BomPolicy::strip});
}

common::Status at_most_one_stdout(std::initializer_list<std::pair<const char*, const std::string*>> outputs) {
  const char* first = nullptr;
  for (const auto& [name, value] : outputs) {
    if (*value != "-") continue;
    if (first != nullptr) {
      return common::Error::malformed(std::string(name) + " - and " + first + " - would both write to stdout; name a file for one");
    }
    first = name;
  }
  return {};
}

nlohmann::ordered_json float_json(float v) {
  if (!std::isfinite(v)) return nullptr;
  std::array<char, 64> buf{};
  auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  double d = 0;
  std::from_chars(buf.data(), res.ptr, d);
  return d;
}

Fields::Fields(const nlohmann::ordered_json& obj, std::string f, std::int64_t l, std::string p)
    : file(std::move(f)), line(l), path(std::move(p)), obj_(obj) {}

std::string Fields::pointer(const std::string& key) const { return path + "/" + common::json_pointer_token(key); }

common::Error Fields::error(const std::string& key, const std::string& msg) const {
  return common::Error::malformed(msg, common::Location{file, line, key.empty() ? (path.empty() ? "/" : path) : pointer(key)});
}

common::Status Fields::only(std::initializer_list<const char*> allowed) const {
  if (!obj_.is_object()) return error("", std::string("expected an object, got ") + obj_.type_name());
  for (const auto& [k, v] : obj_.items()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) {
      std::string keys;
      for (const char* a : allowed) keys += std::string(keys.empty() ? "" : ", ") + a;
      return error(k, "unknown key; expected one of " + keys);
    }
  }
  return {};
}

bool Fields::has(const char* key) const { return obj_.is_object() && obj_.contains(key); }

common::Result<const nlohmann::ordered_json*> Fields::get(const char* key) const {
  if (!has(key)) return error("", std::string("missing required key '") + key + "'");
  return &obj_.at(key);
}

common::Result<bool> Fields::boolean(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (!(*v)->is_boolean()) return error(key, std::string("expected true or false, got ") + common::excerpt((*v)->dump()));
  return (*v)->get<bool>();
}

common::Result<std::uint64_t> Fields::unsigned_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if ((*v)->is_number_unsigned()) return (*v)->get<std::uint64_t>();
  return error(key, "expected a non-negative integer, got " + common::excerpt((*v)->dump()));
}

common::Result<std::int64_t> Fields::signed_int(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if ((*v)->is_number_integer() && !((*v)->is_number_unsigned() && (*v)->get<std::uint64_t>() > INT64_MAX)) {
    return (*v)->get<std::int64_t>();
  }
  return error(key, "expected an integer, got " + common::excerpt((*v)->dump()));
}

common::Result<double> Fields::number(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (!(*v)->is_number()) return error(key, "expected a number, got " + common::excerpt((*v)->dump()));
  return (*v)->get<double>();
}

common::Result<float> Fields::unit_float(const char* key) const {
  auto n = number(key);
  if (!n) return n.error();
  if (!(*n >= 0.0 && *n <= 1.0)) return error(key, "expected a number in [0, 1], got " + common::excerpt(obj_.at(key).dump()));
  return static_cast<float>(*n);
}

common::Result<std::string> Fields::string(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (!(*v)->is_string()) return error(key, "expected a string, got " + common::excerpt((*v)->dump()));
  return (*v)->get<std::string>();
}

common::Result<const nlohmann::ordered_json*> Fields::array(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (!(*v)->is_array()) return error(key, std::string("expected an array, got ") + (*v)->type_name());
  return *v;
}

common::Result<const nlohmann::ordered_json*> Fields::object(const char* key) const {
  auto v = get(key);
  if (!v) return v.error();
  if (!(*v)->is_object()) return error(key, std::string("expected an object, got ") + (*v)->type_name());
  return *v;
}

}  // namespace atenia::cli
