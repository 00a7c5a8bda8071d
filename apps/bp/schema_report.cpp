#include "schema_report.hpp"

#include <unistd.h>

#include "cli_error.hpp"
#include "common/json_string.hpp"
#include "terminal.hpp"

namespace bp::cli {
namespace {

std::string paint(std::string_view text, std::string_view sgr, bool on) {
  if (!on) return std::string(text);
  return std::string(sgr) + std::string(text) + std::string(sgr_reset());
}

}  // namespace

int report_schema_result(const Invocation& inv, std::string_view heading, const std::vector<common::Error>& errors) {
  if (errors.empty()) {
    if (inv.json) {
      (void)write_stdout("{\"ok\":true}\n");
    } else {
      (void)write_stdout(paint("valid", sgr_green(), use_color(STDOUT_FILENO, inv.color, false)) + "\n");
    }
    return kExitOk;
  }
  if (inv.json) {
    std::string out = "{\"ok\":false,\"errors\":[";
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (i > 0) out += ",";
      out += "{\"instancePath\":" + common::json_string(errors[i].where().json_path) +
             ",\"message\":" + common::json_string(errors[i].message()) + "}";
    }
    (void)write_stdout(out + "]}\n");
    return kExitFailure;
  }
  const bool color = use_color(STDERR_FILENO, inv.color, false);
  std::string text = paint(heading, sgr_bold_red(), color) + "\n\n";
  for (const auto& e : errors) {
    const std::string& path = e.where().json_path;
    text += "  " + paint("error", sgr_red(), color) + " at " + (path.empty() ? std::string("(root)") : path) + ": " +
            e.message() + (e.detail().empty() ? "" : " (" + e.detail() + ")") + "\n";
  }
  write_stderr(text + "\n");
  return kExitFailure;
}

}  // namespace bp::cli
