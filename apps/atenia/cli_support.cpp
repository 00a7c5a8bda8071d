#include "cli_support.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/checked_stdout.hpp"
#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace atenia::cli {

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

int committed_exit(const char* what) {
  if (const int err = common::flush_stdout(); err != 0) {
    std::cerr << "atenia: warning: " << what << ", but its report could not be written to stdout: " << std::strerror(err)
              << "\n";
    common::forgive_stdout_error();
  }
  return kExitOk;
}

}  // namespace atenia::cli
