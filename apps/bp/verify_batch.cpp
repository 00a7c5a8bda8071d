#include "verify_batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>
#include <variant>

#include "command_support.hpp"
#include "common/js_json_text.hpp"
#include "input_source.hpp"
#include "receipt_reader.hpp"
#include "terminal.hpp"
#include "verify_general.hpp"
#include "verify_output.hpp"

namespace bp::cli {
namespace {

bool receipt_extension(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".json" || ext == ".jsonl";
}

// The receipts an argument names: itself, or a directory's receipt files in path order.
std::vector<std::string> expand(const std::string& arg, std::string& error) {
  std::error_code ec;
  if (arg == "-" || !std::filesystem::is_directory(arg, ec)) return {arg};
  std::vector<std::string> files;
  std::filesystem::recursive_directory_iterator it(arg, std::filesystem::directory_options::skip_permission_denied, ec);
  for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && receipt_extension(it->path())) files.push_back(it->path().string());
  }
  if (ec) error = "could not list " + arg + ": " + ec.message();
  std::sort(files.begin(), files.end());
  return files;
}

struct Tally {
  std::size_t receipts = 0, passed = 0, warned = 0, failed = 0, errors = 0;
};

std::string first_failure(const VerifyReport& r) {
  for (const auto& c : r.checks) {
    if (c.status == CheckStatus::fail) return c.name + (c.message ? ": " + *c.message : "");
  }
  for (const auto& c : r.checks) {
    if (c.status != CheckStatus::pass) return c.name + (c.message ? ": " + *c.message : "");
  }
  return {};
}

}  // namespace

int verify_general_many(const Invocation& inv, const std::vector<std::string>& args) {
  const bool color = use_color(STDERR_FILENO, inv.color, inv.json);
  const VerdictOptions options{inv.warn_as_fail, inv.strict};
  Tally t;
  bool out_ok = true;
  auto error_line = [&](const std::string& file, const CliError& e) {
    ++t.receipts;
    ++t.errors;
    if (inv.json) {
      std::string env = json_envelope(e);  // {"ok":false,"error":{..}}\n
      out_ok = out_ok && write_stdout("{\"file\":" + common::js_stringify(file) + "," + env.substr(1));
    } else {
      write_stderr(std::string("[") + (color ? "\x1b[31mERROR\x1b[0m" : "ERROR") + "] " + file + ": " + e.message +
                   "\n");
    }
  };
  for (const auto& arg : args) {
    std::string list_error;
    const auto files = expand(arg, list_error);
    if (!list_error.empty()) {
      CliError e;
      e.code = "IO_ERROR";
      e.message = list_error;
      error_line(arg, e);
    }
    for (const auto& file : files) {
      verbose_log(inv, "verify general subject: " + file);
      auto input = read_input(file);
      if (auto* e = std::get_if<CliError>(&input)) {
        error_line(file, *e);
        continue;
      }
      auto doc = read_one_receipt(std::get<InputText>(input), file);
      if (auto* e = std::get_if<CliError>(&doc)) {
        error_line(file, *e);
        continue;
      }
      const VerifyReport report = verify_general(std::get<nlohmann::ordered_json>(doc), file, options);
      ++t.receipts;
      CheckStatus shown = CheckStatus::pass;
      if (report.overall == "fail") {
        ++t.failed;
        shown = CheckStatus::fail;
      } else if (report.overall == "warn") {
        ++t.warned;
        shown = CheckStatus::warn;
      } else {
        ++t.passed;
      }
      if (inv.json) {
        nlohmann::ordered_json j;
        j["file"] = file;
        j["ok"] = !report.failed();
        j["report"] = report_json(report);
        out_ok = out_ok && write_stdout(common::js_stringify(j) + "\n");
      } else {
        std::string line = std::string("[") + status_tag(shown, color) + "] " + file;
        if (shown != CheckStatus::pass) line += ": " + first_failure(report);
        write_stderr(line + "\n");
        if (inv.verbose && shown != CheckStatus::pass) write_stderr(render_report(report, color, true));
      }
    }
  }
  if (t.receipts == 0) {
    CliError e;
    e.code = "NO_RECEIPTS";
    e.message = "no receipts to verify: the directories given hold no *.json or *.jsonl file.";
    return fail(inv, e);
  }
  const bool ok = t.failed == 0 && t.errors == 0;
  if (inv.json) {
    nlohmann::ordered_json s;
    s["receipts"] = t.receipts;
    s["passed"] = t.passed;
    s["warned"] = t.warned;
    s["failed"] = t.failed;
    s["errors"] = t.errors;
    nlohmann::ordered_json j;
    j["summary"] = std::move(s);
    j["ok"] = ok;
    out_ok = out_ok && write_stdout(common::js_stringify(j) + "\n");
    if (!out_ok) return stdout_write_failed();
  } else {
    write_stderr("verify general: " + std::to_string(t.receipts) + " receipt(s): " + std::to_string(t.passed) +
                 " passed, " + std::to_string(t.warned) + " passed with warnings, " + std::to_string(t.failed) +
                 " failed, " + std::to_string(t.errors) + " unreadable\n");
  }
  if (t.errors > 0) return kExitUsageOrInput;
  return t.failed > 0 ? kExitVerificationFailed : kExitOk;
}

}  // namespace bp::cli
