#pragma once
// What every atenia subcommand shares: the exit codes, the one-line error report, atomic
// output files, and reading typed fields out of strict JSON input.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/json_input.hpp"
#include "common/result.hpp"

namespace CLI {
class App;
}

namespace atenia::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;          // verification failure; `explain` usage (seed 13.11.4)
inline constexpr int kExitMalformedOrIo = 2;    // usage, I/O, malformed input
inline constexpr int kExitInvalidArgument = 3;  // a value outside its domain

// A parsed subcommand's work; registered by each cmd_<name>.cpp.
using Runner = std::function<int()>;
struct Registration {
  CLI::App* app = nullptr;
  Runner run;
};

// Prints "atenia: <error line>" to stderr; returns the exit code of its ErrorCode.
int report(const common::Error& e);
int exit_code_for(common::ErrorCode code);

// `-` is stdout; any other path is written atomically (no partial file on failure).
[[nodiscard]] common::Status write_output(const std::string& path, std::string_view text);

// Inputs: `-` is stdin (read once; a second `-` in one command is refused by the caller),
// any other path a file. Errors name "<stdin>" or the path.
[[nodiscard]] std::string input_name(const std::string& path);
[[nodiscard]] common::Result<std::string> read_input_text(const std::string& path, std::size_t max_bytes);
[[nodiscard]] common::Result<nlohmann::ordered_json> read_json_input(const std::string& path);
[[nodiscard]] common::Result<std::vector<common::JsonlRecord>> read_jsonl_input(const std::string& path);

// Refuses two outputs both on stdout, or an input and an output both `-` where the caller
// asks: `names` pairs an option name with its value.
[[nodiscard]] common::Status at_most_one_stdout(std::initializer_list<std::pair<const char*, const std::string*>> outputs);

// JSON numbers for floats: the shortest decimal that reads back as the same float, so 0.82F
// prints as 0.82 rather than 0.8199999928474426. Locale-independent.
[[nodiscard]] nlohmann::ordered_json float_json(float v);

// Strict field access on one JSON object; errors name the file, line and JSON pointer.
class Fields {
 public:
  Fields(const nlohmann::ordered_json& obj, std::string file, std::int64_t line, std::string path);

  [[nodiscard]] common::Status only(std::initializer_list<const char*> allowed) const;  // the object check too
  [[nodiscard]] bool has(const char* key) const;
  [[nodiscard]] common::Result<bool> boolean(const char* key) const;
  [[nodiscard]] common::Result<std::uint64_t> unsigned_int(const char* key) const;
  [[nodiscard]] common::Result<std::int64_t> signed_int(const char* key) const;
  [[nodiscard]] common::Result<double> number(const char* key) const;
  [[nodiscard]] common::Result<float> unit_float(const char* key) const;  // finite, in [0, 1]
  [[nodiscard]] common::Result<std::string> string(const char* key) const;
  [[nodiscard]] common::Result<const nlohmann::ordered_json*> array(const char* key) const;
  [[nodiscard]] common::Result<const nlohmann::ordered_json*> object(const char* key) const;
  [[nodiscard]] common::Error error(const std::string& key, const std::string& msg) const;
  [[nodiscard]] std::string pointer(const std::string& key) const;

  std::string file;
  std::int64_t line;
  std::string path;

 private:
  [[nodiscard]] common::Result<const nlohmann::ordered_json*> get(const char* key) const;
  const nlohmann::ordered_json& obj_;
};

}  // namespace atenia::cli
