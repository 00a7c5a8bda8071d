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
#include "verify_multi.hpp"
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

bool is_mazur_receipt(const nlohmann::ordered_json& r) {
  const auto it = r.is_object() ? r.find("schema_version") : r.end();
  return it != r.end() && it->is_string() && it->get_ref<const std::string&>() == "0.1.0";
}

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
  auto tally = [&](std::string_view overall) {
    ++t.receipts;
    if (overall == "fail") {
      ++t.failed;
      return CheckStatus::fail;
    }
    if (overall == "warn") {
      ++t.warned;
      return CheckStatus::warn;
    }
    ++t.passed;
    return CheckStatus::pass;
  };
  auto bundle_line = [&](const std::string& file) {
    auto verdict = verify_multi_verdict(inv, file);
    if (auto* e = std::get_if<CliError>(&verdict)) return error_line(file, *e);
    const auto& v = std::get<MultiVerdict>(verdict);
    const CheckStatus shown = tally(v.overall);
    if (inv.json) {
      nlohmann::ordered_json j;
      j["file"] = file;
      j["ok"] = v.overall != "fail";
      j["bundle"] = {{"overall", v.overall}, {"record_count", v.records}};
      if (!v.first_problem.empty()) j["bundle"]["first_problem"] = v.first_problem;
      out_ok = out_ok && write_stdout(common::js_stringify(j) + "\n");
    } else {
      std::string line = std::string("[") + status_tag(shown, color) + "] " + file + " (bundle of " +
                         std::to_string(v.records) + " records, as verify multi)";
      if (shown != CheckStatus::pass) line += ": " + v.first_problem;
      write_stderr(line + "\n");
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
        // A run of steps (bp generate xor-multi-step, bp import ... multi) is one bundle here.
        if (e->code == "BP_JSONL_MULTI_RECORD" && file != "-") {  // stdin is already read
          bundle_line(file);
        } else {
          error_line(file, *e);
        }
        continue;
      }
      const auto& receipt = std::get<nlohmann::ordered_json>(doc);
      // A v0.1.0 (Mazur) receipt gets the Mazur gate, as `bp verify mazur FILE` would.
      const VerifyReport report = is_mazur_receipt(receipt) ? verify_mazur(receipt, options)
                                                            : verify_general(receipt, file, options);
      const CheckStatus shown = tally(report.overall);
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
  if (t.errors > 0) return kExitMalformedOrIo;
  return t.failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace bp::cli
