#include "verify_multi.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "command_support.hpp"
#include "common/js_json_text.hpp"
#include "common/json_input.hpp"
#include "common/json_release.hpp"
#include "input_source.hpp"
#include "reconcile/reconcile.hpp"
#include "reconcile/result_json.hpp"
#include "reconcile_report.hpp"
#include "terminal.hpp"
#include "verify_checks.hpp"
#include "verify_line_reader.hpp"
#include "verify_report.hpp"
#include "verify_spool.hpp"

namespace bp::cli {
namespace {

CliError plain_error(std::string code, std::string message, std::optional<std::string> hint = std::nullopt) {
  CliError e;
  e.code = std::move(code);
  e.message = std::move(message);
  e.hint = std::move(hint);
  if (e.hint) e.retryable = false;
  return e;
}

bool blank(const std::string& line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

// Everything the run keeps between records.
class MultiRun {
 public:
  explicit MultiRun(const Invocation& inv) : inv_(inv), color_(use_color(STDERR_FILENO, inv.color, inv.json)) {}

  std::optional<std::string> open() {
    if (auto e = per_record_.open()) return e;
    return cross_evidence_.open();
  }

  void add(std::size_t index, const nlohmann::ordered_json& receipt) {
    const ReceiptLabel label = describe_receipt(receipt);
    Check schema = schema_check(receipt, "schema[" + std::to_string(index) + "]");
    Check rec;
    rec.name = "reconcile[" + std::to_string(index) + "]";
    if (schema.status == CheckStatus::pass) {
      reconcile::Result r;
      if (all_valid_) {
        r = multi_.add(receipt);
        spool_cross_failures(r);
        const std::string prefix = "receipts[" + std::to_string(index) + "].";
        for (auto& f : r.failures) {
          if (f.field_path.compare(0, prefix.size(), prefix) == 0) f.field_path.erase(0, prefix.size());
        }
      } else {
        r = reconcile::reconcile_receipt(receipt, derive_every_record());
      }
      if (r.math_gate_skipped) {
        math_gate_steps_.push_back(index);
        for (int rule : r.skipped_rules) add_skipped_rule(rule);
        if (r.skipped_rules.empty()) add_skipped_rule(14);
      }
      rec = reconcile_check(r, rec.name);
    } else {
      if (all_valid_) {
        all_valid_ = false;
        cross_evidence_.clear();
        cross_failures_ = 0;
      }
      rec.status = CheckStatus::skip;
      rec.message = "skipped — schema validation failed for this record";
    }
    if (index == 0) untraced_ = !receipt.is_object() || !receipt.contains("trace_id");
    verdict_.add(schema);
    verdict_.add(rec);
    spool_record(index, label, schema, rec);
    ++records_;
  }

  [[nodiscard]] std::size_t records() const { return records_; }

  // Writes the report; returns the exit status.
  int finish() {
    if (per_record_.failed() || cross_evidence_.failed()) {
      return fail(inv_, plain_error("IO_ERROR", "could not write the report's temporary file (is $TMPDIR full?)",
                                    "set TMPDIR to a directory with room for about 200 bytes per record."));
    }
    std::vector<Check> cross;
    reconcile::Result bundle;
    bool has_coverage = false;
    Check rules;
    rules.name = "multi-step-rules-9-10";
    bool rules_evidence_spooled = false;
    if (!all_valid_) {
      rules.status = CheckStatus::skip;
      rules.message =
          "skipped — at least one record failed schema validation; multi-step rules require all records to be "
          "structurally valid";
    } else {
      bundle = multi_.finish();
      spool_cross_failures(bundle);
      has_coverage = !(bundle.rules_evaluated.empty() && bundle.gated_off.empty());
      if (cross_failures_ > 0) {
        rules.status = CheckStatus::fail;
        rules.message = std::to_string(cross_failures_) + " cross-record rule failure(s)";
        rules_evidence_spooled = true;
      }
    }
    verdict_.add(rules);
    cross.push_back(rules);
    if (untraced_ && records_ > 1) {
      // Deliberate difference: the reference exempts such a bundle from Rule 10 without a word.
      Check trace;
      trace.name = "trace-identity";
      trace.status = CheckStatus::warn;
      trace.message =
          "record 0 has no trace_id, so Rule 10 (one trace, step_index 0, 1, 2, ... dense) was not applied: the "
          "records' order and membership in one run are unchecked. Add trace_id to every record; --strict refuses.";
      verdict_.add(trace);
      cross.push_back(std::move(trace));
    }
    if (!math_gate_steps_.empty()) {
      Check gate;
      gate.name = "math-gate";
      gate.status = CheckStatus::fail;
      const std::string list = join_rules(skipped_rules_);
      gate.message = std::to_string(math_gate_steps_.size()) +
                     " record(s) in the bundle self-declare fixture_status.verification_state="
                     "\"engine_recompute_skipped_with_basis\" — the engine-recompute differential (Rule " +
                     list +
                     "), the only independent math gate on observer-mode imports, was SKIPPED on the bundle's own "
                     "say-so. This is NOT a verified PASS: the foreign framework math was never recomputed for those "
                     "step(s). Re-import without the skip (let Rule 14 run) to obtain a verified result, or treat "
                     "this bundle as unverified.";
      nlohmann::ordered_json evidence;
      evidence["math_gate_skipped"] = true;
      evidence["skipped_steps"] = math_gate_steps_;
      evidence["skipped_rules"] = skipped_rules_;
      gate.evidence = std::move(evidence);
      verdict_.add(gate);
      cross.push_back(std::move(gate));
    }
    const std::string overall(verdict_.overall({inv_.warn_as_fail, inv_.strict}));
    const bool ok = overall != "fail";
    bool written = true;
    if (inv_.json) {
      std::string head = std::string("{\"ok\":") + (ok ? "true" : "false") + ",\"report\":{\"overall\":" +
                         common::js_stringify(overall) + ",\"record_count\":" + std::to_string(records_) +
                         ",\"per_record\":[";
      written = write_stdout(head) && per_record_.replay(write_stdout);
      std::string tail = "],\"cross_record_checks\":[";
      for (std::size_t i = 0; i < cross.size(); ++i) {
        if (i > 0) tail += ",";
        if (i == 0 && rules_evidence_spooled) {
          std::string j = common::js_stringify(check_json(cross[0]));
          j.pop_back();  // the closing brace; the evidence follows
          tail += j + ",\"evidence\":[";
          written = written && write_stdout(tail) && cross_evidence_.replay(write_stdout);
          tail = "]}";
        } else {
          tail += common::js_stringify(check_json(cross[i]));
        }
      }
      tail += "]";
      if (!math_gate_steps_.empty()) {
        tail += ",\"math_gate_skipped\":true,\"skipped_rules\":" + common::js_stringify(skipped_rules_);
      }
      if (has_coverage) {
        tail += ",\"rules_evaluated\":" + common::js_stringify(bundle.rules_evaluated) +
                ",\"gated_off\":" + common::js_stringify(bundle.gated_off);
      }
      tail += "}}\n";
      written = written && write_stdout(tail);
      if (!written) {
        write_stderr("bp: could not write the report to stdout\n");
        return kExitUsageOrInput;
      }
    } else {
      const std::string n = std::to_string(records_);
      const std::string header = overall == "pass"   ? "verify multi passed (" + n + " record(s))"
                                 : overall == "warn" ? "verify multi passed with warnings (" + n + " record(s))"
                                                     : "verify multi failed (" + n + " record(s))";
      auto to_stderr = [](std::string_view s) { return write_stderr(s); };
      (void)write_stderr(paint_header(header, overall, color_) + "\n\n");
      (void)per_record_.replay(to_stderr);
      std::string tail = "\ncross-record:\n";
      for (std::size_t i = 0; i < cross.size(); ++i) {
        if (i == 0 && rules_evidence_spooled) {
          Check bare = cross[0];
          bare.evidence.reset();
          tail += render_check(bare, color_) + "    [\n";
          (void)write_stderr(tail);
          (void)cross_evidence_.replay(to_stderr);
          tail = "\n    ]\n";
        } else {
          tail += render_check(cross[i], color_);
        }
      }
      if (inv_.verbose && has_coverage) {
        tail += "\n  " + coverage_line(bundle.rules_evaluated, bundle.gated_off) + "\n";
      }
      (void)write_stderr(tail);
    }
    return ok ? kExitOk : kExitVerificationFailed;
  }

 private:
  void add_skipped_rule(int rule) {
    for (int r : skipped_rules_) {
      if (r == rule) return;
    }
    skipped_rules_.push_back(rule);
    std::sort(skipped_rules_.begin(), skipped_rules_.end());
  }

  // The cross-record check's evidence: every failure reconcileMultiStep reports, in its order.
  void spool_cross_failures(const reconcile::Result& r) {
    if (!all_valid_) return;
    for (const auto& f : r.failures) {
      const nlohmann::ordered_json j = reconcile::to_json(f);
      if (inv_.json) {
        if (cross_failures_ > 0) cross_evidence_.append(",");
        cross_evidence_.append(common::js_stringify(j));
      } else {
        // An element of JSON.stringify(failures, null, 2), indented as the report indents evidence.
        std::string pretty = common::js_stringify_pretty(j, 2);
        std::string out = cross_failures_ > 0 ? ",\n" : "";
        std::size_t start = 0;
        for (;;) {
          const auto nl = pretty.find('\n', start);
          out += "      " + pretty.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
          if (nl == std::string::npos) break;
          out += "\n";
          start = nl + 1;
        }
        cross_evidence_.append(out);
      }
      ++cross_failures_;
    }
    cross_failures_ += r.failures_dropped;
  }

  void spool_record(std::size_t index, const ReceiptLabel& label, const Check& schema, const Check& rec) {
    if (inv_.json) {
      nlohmann::ordered_json j;
      j["step_index"] = index;
      if (label.schema_version) j["schema_version"] = *label.schema_version;
      if (label.fixture_id) j["fixture_id"] = *label.fixture_id;
      j["schema"] = check_json(schema);
      j["reconcile"] = check_json(rec);
      per_record_.append((index > 0 ? "," : "") + common::js_stringify(j));
    } else {
      std::string text = "record " + std::to_string(index) + (label.fixture_id ? " (" + *label.fixture_id + ")" : "") +
                         ":\n";
      text += render_check(schema, color_);
      text += render_check(rec, color_);
      per_record_.append(text);
    }
  }

  const Invocation& inv_;
  bool color_;
  Spool per_record_, cross_evidence_;
  // Deliberate difference from the reference: every record's numbers are derived (README, "bp verify multi").
  static reconcile::Options derive_every_record() { return {.derive_every_record = true}; }
  reconcile::MultiStepReconciler multi_{derive_every_record()};
  Verdict verdict_;
  bool all_valid_ = true;
  bool untraced_ = false;  // record 0 carries no trace_id (Rule 10 exempts the bundle)
  std::size_t records_ = 0;
  std::size_t cross_failures_ = 0;
  std::vector<std::size_t> math_gate_steps_;
  std::vector<int> skipped_rules_;
};

}  // namespace

int verify_multi_file(const Invocation& inv, const std::string& file) {
  const bool from_stdin = file == "-";
  int fd = STDIN_FILENO;
  if (from_stdin) {
    if (auto e = check_stdin_piped()) return fail(inv, *e);
  } else {
    if (auto e = check_input_path(file)) return fail(inv, *e);
    fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return fail(inv, plain_error("IO_ERROR", "could not read " + file + ": " + std::strerror(errno),
                                   "verify the path is a readable file; if this persists, the file or filesystem "
                                   "may be damaged."));
    }
  }
  struct Closer {
    int fd;
    ~Closer() {
      if (fd != STDIN_FILENO) ::close(fd);
    }
  } closer{fd};

  MultiRun run(inv);
  if (auto e = run.open()) return fail(inv, plain_error("IO_ERROR", *e, "set TMPDIR to a writable directory."));
  const std::string name = from_stdin ? "<stdin>" : file;
  LineReader reader(fd, kMaxRecordBytes);
  std::string line;
  for (;;) {
    const auto status = reader.next(line);
    if (status == LineReader::Status::end) break;
    if (status == LineReader::Status::io_error) {
      return fail(inv, plain_error("IO_ERROR", "could not read " + name + ": " + std::strerror(reader.last_errno()),
                                   "verify the path is a readable file; if this persists, the file or filesystem "
                                   "may be damaged."));
    }
    if (status == LineReader::Status::too_long) {
      return fail(inv, plain_error("INPUT_TOO_LARGE",
                                   "input too large to read: line " + std::to_string(reader.line_number()) + " of " +
                                       name + " is longer than " + std::to_string(kMaxRecordBytes) +
                                       " bytes, the limit for one record.",
                                   "a receipt this large cannot be verified; split the run into smaller steps."));
    }
    if (blank(line)) continue;
    common::JsonInputOptions options;
    options.file = name;
    options.bom = common::BomPolicy::reject;
    options.max_bytes = kMaxRecordBytes;
    options.first_line = reader.line_number();
    auto doc = common::parse_json_text(line, options);
    if (!doc) {
      return fail(inv, plain_error("BP_JSONL_PARSE_ERROR",
                                   "Invalid JSON at line " + std::to_string(reader.line_number()) + ": " +
                                       doc.error().to_string(),
                                   "each line of a multi-record JSONL file must be a standalone JSON object."));
    }
    run.add(run.records(), *doc);
    common::release_json(*doc);
  }
  if (run.records() == 0) {
    return fail(inv, plain_error("BP_JSONL_EMPTY", "bp verify multi: " + std::string(from_stdin ? "stdin" : file) +
                                                       " contains no JSON records (empty or whitespace-only)."));
  }
  return run.finish();
}

}  // namespace bp::cli
