#include "import_report.hpp"

#include <unistd.h>

#include <cmath>

#include "cli_error.hpp"
#include "common/js_json_text.hpp"
#include "terminal.hpp"

namespace bp::cli {
namespace {

using nlohmann::ordered_json;

std::string paint(std::string_view text, std::string_view sgr, bool color) {
  if (!color) return std::string(text);
  return std::string(sgr) + std::string(text) + std::string(sgr_reset());
}

// A JavaScript number as `${n}` prints it.
std::string js_text(double v) { return std::isnan(v) ? "NaN" : common::js_number_to_string(v); }

ordered_json disagreement_json(const importer::Disagreement& d) {
  ordered_json o = ordered_json::object();
  o["fieldPath"] = d.field_path;
  o["delta"] = d.delta;
  o["appliedTolerance"] = d.applied_tolerance;
  o["stored"] = d.stored;
  o["recomputed"] = d.recomputed;
  if (d.extended) o["extended"] = true;
  return o;
}

ordered_json disagreements_json(const std::vector<importer::Disagreement>& list) {
  ordered_json a = ordered_json::array();
  for (const auto& d : list) a.push_back(disagreement_json(d));
  return a;
}

std::string disagreement_line(const importer::Disagreement& d, std::string_view indent, bool color) {
  return std::string(indent) + paint("disagree", sgr_red(), color) + " " + d.field_path + ": stored=" +
         js_text(d.stored) + " recomputed=" + js_text(d.recomputed) + " delta=" + js_text(d.delta) +
         " (tolerance=" + js_text(d.applied_tolerance) + ")" + (d.extended ? " [bp extended check]" : "") + "\n";
}

int single_outcome(const Invocation& inv, const importer::ImportResult& result) {
  const importer::StepOutcome& step = result.steps.front();
  const bool color = use_color(STDERR_FILENO, inv.color, inv.json);
  if (step.passed) {
    if (inv.json) {
      write_stderr(R"({"ok":true,"differential":{"passed":true,"disagreements":[]}})" "\n");
    } else if (inv.has_out()) {
      write_stderr(paint("import ok", sgr_green(), color) + ": differential check passed; wrote " + *inv.out + "\n");
    }
    return kExitOk;
  }
  if (inv.json) {
    ordered_json o = {{"ok", false},
                      {"differential", {{"passed", false}, {"disagreements", disagreements_json(step.disagreements)}}}};
    write_stderr(common::js_stringify(o) + "\n");
    return kExitFailure;
  }
  std::string text = paint("import warning", sgr_bold_red(), color) +
                     ": engine-recompute differential DISAGREED on " + std::to_string(step.disagreements.size()) +
                     " field(s).\n  The receipt was still emitted with "
                     "verification_state='engine_recompute_disagreed' for audit.\n";
  for (std::size_t i = 0; i < step.disagreements.size() && i < 10; ++i) {
    text += disagreement_line(step.disagreements[i], "  ", color);
  }
  if (step.disagreements.size() > 10) text += "  ... and " + std::to_string(step.disagreements.size() - 10) + " more.\n";
  text +=
      "  Values above are stored (receipt-claimed) vs recomputed (engine). For the\n"
      "  full per-field differential, run: bp verify general <emitted-receipt> --json\n\n";
  write_stderr(text);
  return kExitFailure;
}

int multi_outcome(const Invocation& inv, const importer::ImportResult& result) {
  const bool color = use_color(STDERR_FILENO, inv.color, inv.json);
  const std::string digest = result.bundle_root_digest.value_or("");
  const std::size_t n = result.steps.size();
  if (result.all_passed()) {
    if (inv.json) {
      ordered_json o = {{"ok", true}, {"steps", n}, {"bundle_root_digest", digest}, {"differential", {{"all_passed", true}}}};
      write_stderr(common::js_stringify(o) + "\n");
    } else if (inv.has_out()) {
      write_stderr(paint("multi-step import ok", sgr_green(), color) + ": " + std::to_string(n) +
                   " receipts; all per-step differentials passed; bundle_root_digest=" + digest + "; wrote " +
                   *inv.out + "\n");
    }
    return kExitOk;
  }
  std::vector<std::size_t> failed;
  for (std::size_t i = 0; i < n; ++i) {
    if (!result.steps[i].passed) failed.push_back(i);
  }
  if (inv.json) {
    ordered_json per_step = ordered_json::array();
    for (std::size_t i = 0; i < n; ++i) {
      per_step.push_back({{"step_index", i},
                          {"passed", result.steps[i].passed},
                          {"disagreements", disagreements_json(result.steps[i].disagreements)}});
    }
    ordered_json o = {{"ok", false},
                      {"steps", n},
                      {"bundle_root_digest", digest},
                      {"differential",
                       {{"all_passed", false}, {"disagreed_step_indices", failed}, {"disagreements", per_step}}}};
    write_stderr(common::js_stringify(o) + "\n");
    return kExitFailure;
  }
  std::string indices;
  for (std::size_t i : failed) indices += (indices.empty() ? "" : ", ") + std::to_string(i);
  std::string text = paint("multi-step import warning", sgr_bold_red(), color) +
                     ": engine-recompute differential DISAGREED on " + std::to_string(failed.size()) + " of " +
                     std::to_string(n) + " step(s) (indices: " + indices +
                     ").\n  All receipts emitted with per-step verification_state for audit.\n";
  for (std::size_t k = 0; k < failed.size() && k < 5; ++k) {
    const auto& step = result.steps[failed[k]];
    text += "  step " + std::to_string(failed[k]) + ": " + std::to_string(step.disagreements.size()) +
            " field(s) disagreed\n";
    for (std::size_t i = 0; i < step.disagreements.size() && i < 5; ++i) {
      text += disagreement_line(step.disagreements[i], "    ", color);
    }
  }
  text +=
      "  Values above are stored (receipt-claimed) vs recomputed (engine). For the\n"
      "  full per-field differential, run: bp verify multi <emitted-bundle.jsonl> --json\n\n";
  write_stderr(text);
  return kExitFailure;
}

}  // namespace

int report_import_failure(const Invocation& inv, const common::Error& e, bool multi, const std::string& file) {
  if (inv.json) {
    ordered_json o = {{"ok", false},
                      {"error", {{"kind", multi ? "IMPORT_STREAM_FAILED" : "IMPORT_FAILED"}, {"message", e.message()}}}};
    write_stderr(common::js_stringify(o) + "\n");
    return kExitMalformedOrIo;
  }
  // One line naming the sidecar (bp(1): every error is one line naming the file), where the
  // reference prints a heading, a blank line and the indented message.
  write_stderr("bp: " + e.at_file(file).to_string() + "\n");
  return kExitMalformedOrIo;
}

int report_import_outcome(const Invocation& inv, const importer::ImportResult& result, bool multi) {
  return multi ? multi_outcome(inv, result) : single_outcome(inv, result);
}

}  // namespace bp::cli
