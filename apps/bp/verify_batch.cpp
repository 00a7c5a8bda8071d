#include "verify_batch.hpp"

#include <unistd.h>

#include <optional>
#include <variant>

#include "command_support.hpp"
#include "common/js_json_text.hpp"
#include "input_source.hpp"
#include "receipt_reader.hpp"
#include "terminal.hpp"
#include "verify/batch.hpp"
#include "verify/report_json.hpp"
#include "verify_multi.hpp"
#include "verify_options.hpp"
#include "verify_output.hpp"
#include "verify_report.hpp"

namespace bp::cli {

int verify_general_many(const Invocation& inv, const std::vector<std::string>& args) {
  const bool color = use_color(STDERR_FILENO, inv.color, inv.json);
  using verify::CheckStatus;
  const verify::VerdictOptions options = verdict_options(inv);
  // Loaded at the first v0.1.0 receipt: a batch without one does not need them.
  std::optional<verify::MazurFixtures> fixtures;
  verify::BatchTally t;
  bool out_ok = true;
  auto error_line = [&](const std::string& file, const CliError& e) {
    t.add_error();
    if (inv.json) {
      std::string env = json_envelope(e);  // {"ok":false,"error":{..}}\n
      out_ok = out_ok && write_stdout("{\"file\":" + common::js_stringify(file) + "," + env.substr(1));
    } else {
      write_stderr(std::string("[") + (color ? "\x1b[31mERROR\x1b[0m" : "ERROR") + "] " + file + ": " + e.message +
                   "\n");
    }
  };
  auto bundle_line = [&](const std::string& file) {
    auto verdict = verify_multi_verdict(inv, file);
    if (auto* e = std::get_if<CliError>(&verdict)) return error_line(file, *e);
    const auto& v = std::get<verify::MultiOutcome>(verdict);
    const CheckStatus shown = t.add_verdict(v.overall);
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
    const verify::ReceiptPaths paths = verify::receipt_paths(arg);
    if (paths.error) {
      CliError e;
      e.code = "IO_ERROR";
      e.message = paths.error->message();
      error_line(arg, e);
    }
    for (const auto& file : paths.files) {
      verbose_log(inv, "verify general subject: " + file);
      if (const common::Error* why = paths.unreadable_reason(file)) {
        CliError e;
        e.code = "IO_ERROR";
        e.message = why->message();
        error_line(file, e);
        continue;
      }
      auto input = read_input(file);
      if (auto* e = std::get_if<CliError>(&input)) {
        error_line(file, *e);
        continue;
      }
      auto doc = read_one_receipt_document(std::get<InputText>(input), file);
      if (auto* e = std::get_if<CliError>(&doc)) {
        // A run of steps (bp generate xor-multi-step, bp import ... multi) is one bundle here.
        if (e->code == "BP_JSONL_MULTI_RECORD" && file != "-") {  // stdin is already read
          bundle_line(file);
        } else {
          error_line(file, *e);
        }
        continue;
      }
      auto& receipt = std::get<common::JsonDocument>(doc);
      if (!fixtures && verify::gets_mazur_gate(receipt.root())) {
        // A broken installation stops the batch: every later v0.1.0 receipt would hit it too.
        auto loaded = bundled_mazur_fixtures();
        if (auto* e = std::get_if<CliError>(&loaded)) return fail(inv, *e);
        fixtures = std::move(std::get<verify::MazurFixtures>(loaded));
      }
      // A v0.1.0 (Mazur) receipt gets the Mazur gate, as `bp verify mazur FILE` would.
      const verify::VerifyReport report =
          verify::verify_receipt(std::move(receipt), {options, file}, fixtures ? *fixtures : verify::MazurFixtures{});
      const CheckStatus shown = t.add_verdict(report.overall);
      if (inv.json) {
        nlohmann::ordered_json j;
        j["file"] = file;
        j["ok"] = !report.failed();
        j["report"] = verify::report_json(report);
        out_ok = out_ok && write_stdout(common::js_stringify(j) + "\n");
      } else {
        std::string line = std::string("[") + status_tag(shown, color) + "] " + file;
        if (shown != CheckStatus::pass) line += ": " + verify::first_problem(report);
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
  const bool ok = t.ok();
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
