#include "cli_error.hpp"

#include "cli_common/tool_report.hpp"

#include "common/json_string.hpp"
#include "terminal.hpp"

namespace bp::cli {

std::string json_envelope(const CliError& e) {
  std::string out = R"({"ok":false,"error":{"code":)";
  common::append_json_string(out, e.code);
  out += R"(,"message":)";
  common::append_json_string(out, e.message);
  if (e.hint) {
    out += R"(,"hint":)";
    common::append_json_string(out, *e.hint);
  }
  if (e.cause) {
    out += R"(,"cause":)";
    common::append_json_string(out, *e.cause);
  }
  if (e.retryable) out += *e.retryable ? R"(,"retryable":true)" : R"(,"retryable":false)";
  out += "}}\n";
  return out;
}

void report(const CliError& e, bool json_mode) {
  if (json_mode) {
    (void)write_stdout(json_envelope(e));
    return;
  }
  std::string text = "bp: " + e.message + "\n";
  if (e.hint) text += "Hint: " + *e.hint + "\n";
  write_stderr(text);
}

CliError from_library_error(const common::Error& e, std::string code) {
  CliError out;
  out.code = std::move(code);
  out.message = e.to_string();
  out.exit_code = cli_common::exit_code_for(e.code());
  out.retryable = false;
  return out;
}

}  // namespace bp::cli
