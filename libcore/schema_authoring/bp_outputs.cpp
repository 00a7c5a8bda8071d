// bp's JSON results (apps/bp), v0.1.0: what --json prints besides receipts and traces. The
// verify reports (general and mazur; multi; many receipts in one run, one line each), reconcile,
// validate and validate-input, the import summary (on stderr, so stdout stays a receipt stream),
// generate and scaffold results, and the error envelope every command prints under --json when it
// stops early. A check's evidence has the shape its name gives it (libcore/verify/checks.cpp,
// mazur_checks.cpp, mazur_topology.cpp, multi_run.cpp); numbers written as JSON.stringify writes
// them are null where they were not finite.
#include "schema_authoring/families.hpp"
#include "schema_authoring/shared_defs.hpp"

namespace schema_authoring {
// Named, so that these helpers and the other families' do not meet in a unity build.
namespace bp_json {
namespace {

Node count() { return integer().min(0); }
Node rule_list() { return array(integer().min(1).max(26)); }
Node js_number() { return anything().any_of({number(), constant(nullptr)}); }
Node verdict() { return one_of_values({"pass", "warn", "fail"}); }
Node indexed(std::string_view stem) {
  std::string pattern = "^";  // appended: GCC 12 at -O3 misreads a literal + a temporary
  pattern += stem;
  pattern += "(\\[(0|[1-9][0-9]*)\\])?$";
  return string().pattern(pattern);
}

// {"properties": {name: schema}, "required": [name]}: a condition on one member.
Node member(std::string_view name, Node schema) {
  return Node(Json{{"properties", Json{{std::string(name), schema.json()}}}, {"required", Json::array({std::string(name)})}});
}
Node together(std::string_view a, std::string_view b) { return Node().if_then(requires_keys({a}), requires_keys({b})); }
// "ok" is false exactly when the verdict under `holder` is "fail".
std::vector<Node> ok_follows(std::string_view holder) {
  return {Node().if_then(member(holder, member("overall", constant("fail"))), member("ok", constant(false))),
              Node().if_then(member(holder, member("overall", one_of_values({"pass", "warn"}))), member("ok", constant(true)))};
}

SchemaDocument make(std::string_view family, Node root, std::string_view title, std::string_view summary) {
  SchemaDocument doc(std::string(family), "0.1.0", std::move(root));
  doc.title(std::string(title)).summary(std::string(summary));
  return doc;
}

// --- the error envelope ---

Node error_body() {
  return object()
      .field("code", string().pattern("^[A-Z][A-Z0-9_]*$").describe("USAGE, ENOENT, INVALID_FLAG, BP_JSONL_EMPTY, ..."))
      .field("message", string().non_empty())
      .optional("hint", string())
      .optional("cause", string())
      .optional("retryable", boolean())
      .closed()
      .ordered();
}

Node error_envelope() { return object().field("ok", boolean().fixed(false)).field("error", ref("ErrorBody")).closed().ordered(); }

SchemaDocument error_result() {
  SchemaDocument doc = make("bp-error", error_envelope(), "bp --json error",
                            "What every bp command prints on stdout under --json when it stops early (usage, I/O, "
                            "malformed input): a machine-readable code, the message and, where there is one, a hint.");
  doc.define("ErrorBody", error_body());
  return doc;
}

// --- reconciliation failures and checks ---

Node failure() {
  Node factor = object().field("name", string()).optional("from", string()).field("value", js_number()).closed().ordered();
  return object()
      .field("rule", integer().min(0).max(26).describe("0: structural"))
      .optional("parameter_id", string())
      .field("field_path", string())
      .optional("stored", js_number())
      .optional("recomputed", js_number())
      .optional("delta", js_number())
      .optional("tolerance", js_number())
      .optional("factors", array(factor))
      .optional("product_order", string())
      .optional("cascade_of_rule", integer().min(0).max(26))
      .optional("message", string())
      .closed()
      .ordered();
}

// A check: its name, a status out of `statuses`, a message (required unless it passed) and, where
// the check has any, evidence (never on a pass).
Node check(Node name, std::initializer_list<Json> statuses, Node evidence, bool exemptible = false) {
  Node c = object().field("name", std::move(name)).field("status", one_of_values(statuses));
  if (exemptible) c.optional("strictExempt", boolean().fixed(true).describe("a skip by design: does not fail --strict"));
  c.optional("message", string().non_empty());
  if (!evidence.json().empty()) c.optional("evidence", std::move(evidence));
  return c.closed().ordered().all_of(
      {Node().if_then(member("status", constant("pass")), all({forbids_key("message"), forbids_key("evidence")})),
       Node().if_then(member("status", one_of_values({"fail", "warn", "skip"})), requires_keys({"message"}))});
}

Node strings(int at_least) { return array(string()).min_items(at_least); }

void define_checks(SchemaDocument& doc) {
  Node schema_error = object().field("instancePath", string()).field("message", string()).closed().ordered();
  Node divergence = object()
                        .field("first_differing_byte", count())
                        .field("field", string())
                        .field("receipt_value", string())
                        .field("engine_value", string())
                        .field("our_length", count())
                        .field("their_length", count())
                        .closed()
                        .ordered();
  Node mismatch = object()
                      .field("field", one_of_values({"topology.layers", "topology.input_size", "topology.hidden_size",
                                                     "topology.output_size", "topology.bias_sharing", "bias_policy.updated_in_step"}))
                      .field("declared", anything())
                      .field("actual", anything())
                      .closed()
                      .ordered();
  Node drift = object().field("drift_offset", count()).field("emitted_length", count()).field("golden_length", count()).closed().ordered();
  Node hard_drifts = object().field("failures", strings(1)).field("warnings", strings(0)).closed().ordered();
  Node gate = object().field("math_gate_skipped", boolean().fixed(true)).field("skipped_rules", rule_list().min_items(1)).closed().ordered();
  Node bundle_gate = object()
                         .field("math_gate_skipped", boolean().fixed(true))
                         .field("skipped_steps", array(count()).min_items(1))
                         .field("skipped_rules", rule_list().min_items(1))
                         .closed()
                         .ordered();
  doc.define("Failure", failure())
      .define("SchemaCheck", check(indexed("schema"), {"pass", "fail"}, array(schema_error).min_items(1)))
      .define("SchemaDispatchCheck", check(string().fixed("schema-dispatch"), {"fail"}, Node()))
      .define("ReconcileCheck", check(indexed("reconcile"), {"pass", "fail", "skip"}, array(ref("Failure")).min_items(1)))
      .define("MathGateCheck", check(string().fixed("math-gate"), {"fail"}, gate))
      .define("EngineReproduceCheck", check(string().fixed("engine-reproduce"), {"pass", "fail", "skip"}, divergence, true))
      .define("TopologyCheck", check(string().fixed("topology"), {"fail"}, array(mismatch).min_items(1)))
      .define("ByteEqualCheck", check(string().fixed("byte-equal-vs-golden"), {"pass", "fail"}, drift))
      .define("FixtureStatusCheck", check(string().fixed("fixture-status"), {"pass", "fail"}, strings(1).max_items(3)))
      .define("PublishedAnchorCheck", check(string().fixed("published-anchor-drift"), {"pass", "warn", "fail", "skip"},
                                            anything().one_of({hard_drifts, strings(1)})))
      .define("Check", anything().one_of({ref("SchemaCheck"), ref("SchemaDispatchCheck"), ref("ReconcileCheck"),
                                          ref("MathGateCheck"), ref("EngineReproduceCheck"), ref("TopologyCheck"),
                                          ref("ByteEqualCheck"), ref("FixtureStatusCheck"), ref("PublishedAnchorCheck")}))
      .define("RulesCheck", check(string().fixed("multi-step-rules-9-10"), {"pass", "fail", "skip"}, array(ref("Failure"))))
      .define("TraceIdentityCheck", check(string().fixed("trace-identity"), {"warn"}, Node()))
      .define("BundleMathGateCheck", check(string().fixed("math-gate"), {"fail"}, bundle_gate))
      .define("CrossRecordCheck", anything().one_of({ref("RulesCheck"), ref("TraceIdentityCheck"), ref("BundleMathGateCheck")}));
}

// The coverage and math-gate members a report may end with.
Node with_coverage(Node report) {
  return report.optional("math_gate_skipped", boolean().fixed(true))
      .optional("skipped_rules", rule_list().min_items(1))
      .optional("rules_evaluated", rule_list())
      .optional("gated_off", rule_list())
      .closed()
      .ordered()
      .all_of({together("math_gate_skipped", "skipped_rules"), together("skipped_rules", "math_gate_skipped"),
               together("rules_evaluated", "gated_off"), together("gated_off", "rules_evaluated")});
}

Node single_report() { return with_coverage(object().field("overall", verdict()).field("checks", array(ref("Check")).min_items(1))); }

SchemaDocument verify_report() {
  Node root = object().field("ok", boolean()).field("report", ref("Report")).closed().ordered().all_of(ok_follows("report"));
  SchemaDocument doc = make("bp-verify-report", std::move(root), "bp verify general|mazur --json",
                            "The verdict on one receipt: overall pass, warn or fail, each check with its status, "
                            "message and evidence, and which reconciliation rules ran.");
  doc.define("Report", single_report());
  define_checks(doc);
  return doc;
}

SchemaDocument verify_multi_report() {
  Node record = object()
                    .field("step_index", count())
                    .optional("schema_version", string())
                    .optional("fixture_id", string())
                    .field("schema", ref("SchemaCheck"))
                    .field("reconcile", ref("ReconcileCheck"))
                    .closed()
                    .ordered();
  Node report = with_coverage(object()
                                  .field("overall", verdict())
                                  .field("record_count", integer().min(1))
                                  .field("per_record", array(record).min_items(1))
                                  .field("cross_record_checks", array(ref("CrossRecordCheck")).min_items(1)));
  Node root = object().field("ok", boolean()).field("report", report).closed().ordered().all_of(ok_follows("report"));
  SchemaDocument doc = make("bp-verify-multi-report", std::move(root), "bp verify multi --json",
                            "The verdict on a run of steps: each record's schema and reconcile checks, then the "
                            "cross-record checks (Rules 9 and 10 and the bundle's math gate).");
  define_checks(doc);
  return doc;
}

SchemaDocument verify_batch_record() {
  Node report = object().field("file", string()).field("ok", boolean()).field("report", ref("Report")).closed().ordered().all_of(ok_follows("report"));
  Node unreadable = object().field("file", string()).field("ok", boolean().fixed(false)).field("error", ref("ErrorBody")).closed().ordered();
  Node bundle = object()
                    .field("file", string())
                    .field("ok", boolean())
                    .field("bundle", object()
                                         .field("overall", verdict())
                                         .field("record_count", integer().min(1))
                                         .optional("first_problem", string().non_empty())
                                         .closed()
                                         .ordered())
                    .closed()
                    .ordered()
                    .all_of(ok_follows("bundle"));
  Node summary = object()
                     .field("summary", object()
                                           .field("receipts", integer().min(1))
                                           .field("passed", count())
                                           .field("warned", count())
                                           .field("failed", count())
                                           .field("errors", count())
                                           .closed()
                                           .ordered())
                     .field("ok", boolean())
                     .closed()
                     .ordered();
  SchemaDocument doc = make("bp-verify-batch-record", anything().one_of({report, unreadable, bundle, summary}),
                            "bp verify general F1 F2 ...|DIR --json",
                            "One line per receipt (its verify report, the error that kept it from being read, or, for "
                            "a file of several records, the bundle verdict as verify multi gives it), then a summary line.");
  doc.define("Report", single_report()).define("ErrorBody", error_body());
  define_checks(doc);
  return doc;
}

SchemaDocument reconcile_result() {
  Node gate = boolean().fixed(true);
  Node passed = object().field("ok", boolean().fixed(true)).closed();
  Node gate_only = object()
                       .field("ok", boolean().fixed(false))
                       .field("math_gate_skipped", gate)
                       .field("skipped_rules", rule_list().min_items(1))
                       .field("failures", untyped_array().max_items(0))
                       .closed()
                       .ordered();
  Node failed = object()
                    .field("ok", boolean().fixed(false))
                    .field("failures", array(ref("Failure")).min_items(1))
                    .optional("math_gate_skipped", gate)
                    .optional("skipped_rules", rule_list().min_items(1))
                    .optional("failures_dropped", integer().min(1).describe("failures past the first 10000, counted only"))
                    .closed()
                    .ordered()
                    .all_of({together("math_gate_skipped", "skipped_rules"), together("skipped_rules", "math_gate_skipped")});
  SchemaDocument doc = make("bp-reconcile-result", anything().one_of({passed, gate_only, failed}), "bp reconcile receipt --json",
                            "ok, or the rule failures (rule, field path, stored, recomputed, delta, tolerance), or a "
                            "receipt that holds but skipped the Rule 14 math gate itself.");
  doc.define("Failure", failure());
  return doc;
}

SchemaDocument validate_result() {
  Node error = object().field("instancePath", string()).field("message", string().non_empty()).closed().ordered();
  Node valid = object().field("ok", boolean().fixed(true)).closed();
  Node invalid = object().field("ok", boolean().fixed(false)).field("errors", array(error).min_items(1)).closed().ordered();
  return make("bp-validate-result", anything().one_of({valid, invalid}), "bp validate|validate-input --json",
              "A receipt (validate) or a topology input (validate-input) against its schema: ok, or every error with "
              "its JSON path.");
}

// One step's differential: passed with no disagreement, or failed with at least one.
Node one_step(bool passed) {
  Node list = array(ref("Disagreement"));
  if (passed) list.max_items(0);
  else list.min_items(1);
  return object()
      .field("ok", boolean().fixed(passed))
      .field("differential", object().field("passed", boolean().fixed(passed)).field("disagreements", list).closed().ordered())
      .closed()
      .ordered();
}

// A run of steps: how many, the bundle digest and the differential of every step.
Node run(Node differential, bool passed) {
  return object()
      .field("ok", boolean().fixed(passed))
      .field("steps", integer().min(1))
      .field("bundle_root_digest", sha256_digest())
      .field("differential", std::move(differential))
      .closed()
      .ordered();
}

SchemaDocument import_report() {
  Node disagreement = object()
                          .field("fieldPath", string().non_empty())
                          .field("delta", js_number())
                          .field("appliedTolerance", js_number())
                          .field("stored", js_number())
                          .field("recomputed", js_number())
                          .optional("extended", boolean().fixed(true).describe("a field bp compares and the reference does not"))
                          .closed()
                          .ordered();
  Node step = object()
                  .field("step_index", count())
                  .field("passed", boolean())
                  .field("disagreements", array(ref("Disagreement")))
                  .closed()
                  .ordered();
  Node run_failed = object()
                        .field("all_passed", boolean().fixed(false))
                        .field("disagreed_step_indices", array(count()).min_items(1))
                        .field("disagreements", array(step).min_items(1))
                        .closed()
                        .ordered();
  Node refused = object()
                     .field("ok", boolean().fixed(false))
                     .field("error", object()
                                         .field("kind", one_of_values({"IMPORT_FAILED", "IMPORT_STREAM_FAILED"}))
                                         .field("message", string().non_empty())
                                         .closed()
                                         .ordered())
                     .closed()
                     .ordered();
  SchemaDocument doc = make("bp-import-report", anything().one_of({one_step(true), one_step(false), run(object().field("all_passed", boolean().fixed(true)).closed(), true),
                                                     run(run_failed, false), refused}),
                            "bp import ... --json (stderr)",
                            "The one line bp import writes on stderr under --json: the engine-recompute differential of "
                            "one step or of every step of a run (with the bundle digest), or why the sidecar was refused.");
  doc.define("Disagreement", disagreement);
  return doc;
}

SchemaDocument generate_result() {
  Node same = object().field("ok", boolean().fixed(true)).closed();
  Node drifted = object()
                     .field("ok", boolean().fixed(false))
                     .field("drift_offset", count())
                     .field("emitted_length", count())
                     .field("golden_length", count())
                     .closed()
                     .ordered();
  Node written = object().field("ok", boolean().fixed(true)).field("out", string().non_empty()).field("bytes", count()).closed().ordered();
  return make("bp-generate-result", anything().one_of({same, drifted, written}), "bp generate ... --check|--out --json",
              "--check: byte-equal to the golden, or where it drifts (UTF-16 offsets and lengths); --out: the file "
              "written and its length.");
}

SchemaDocument scaffold_result() {
  Node root = object()
                  .field("ok", boolean().fixed(true))
                  .field("output_path", string().non_empty())
                  .field("bytes", count())
                  .closed()
                  .ordered();
  return make("bp-scaffold-result", std::move(root), "bp scaffold topology --out --json", "The file written and its length.");
}

}  // namespace
}  // namespace bp_json

std::vector<SchemaDocument> bp_output_schemas() {
  using namespace bp_json;
  return {error_result(),     verify_report(),  verify_multi_report(), verify_batch_record(), reconcile_result(),
          validate_result(),  import_report(),  generate_result(),     scaffold_result()};
}

}  // namespace schema_authoring
