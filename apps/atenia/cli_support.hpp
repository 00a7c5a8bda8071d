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

#include "cli_common/subcommands.hpp"
#include "cli_common/tool_report.hpp"
#include "common/error.hpp"
#include "common/float_json.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "common/result.hpp"

namespace atenia::cli {

using cli_common::kExitFailure;  // also `explain` usage (seed 13.11.4)
using cli_common::kExitInvalidArgument;
using cli_common::kExitMalformedOrIo;
using cli_common::kExitOk;
using cli_common::exit_code_for;
using cli_common::write_output;

using cli_common::Registration;  // a parsed subcommand's work; registered by each cmd_<name>.cpp
using cli_common::Runner;

// Prints "atenia: <error line>" to stderr; returns the exit code of its ErrorCode.
inline int report(const common::Error& e) { return cli_common::report("atenia", e); }

// The exit of a command whose effect is committed on disk (a checkpoint saved, a table written):
// a report lost on stdout is a one-line warning naming `what` happened, and the status stays 0,
// so that it tells the truth about the commit (atenia(1), EXIT STATUS).
int committed_exit(const char* what);


// Inputs: `-` is stdin (read once; a second `-` in one command is refused by the caller),
// any other path a file. Errors name "<stdin>" or the path.
[[nodiscard]] std::string input_name(const std::string& path);
[[nodiscard]] common::Result<std::string> read_input_text(const std::string& path, std::size_t max_bytes);
[[nodiscard]] common::Result<nlohmann::ordered_json> read_json_input(const std::string& path);
[[nodiscard]] common::Result<std::vector<common::JsonlRecord>> read_jsonl_input(const std::string& path);

// Refuses two outputs both on stdout, or an input and an output both `-` where the caller
// asks: `names` pairs an option name with its value.
[[nodiscard]] common::Status at_most_one_stdout(std::initializer_list<std::pair<const char*, const std::string*>> outputs);

using common::float_json;  // the shortest decimal that reads back as the same float

// Strict field access on one JSON object; errors name the file, line and JSON pointer.
using Fields = common::JsonFields;

}  // namespace atenia::cli
