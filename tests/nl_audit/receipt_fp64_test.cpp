// An fp64 run's step receipts (nltrain train --fp64): f64 tensors, the precision in the model,
// the loss as a binary64; they verify under every rule (way (a) at double), and each tampering
// is caught by the rule that owns it, at a size fp32 receipts could not even hold (the 12th
// significant digit).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "nl_audit/fp64_checks.hpp"
#include "nl_audit/recorder.hpp"
#include "nl_audit/verify.hpp"
#include "redo_update.hpp"

namespace fp64_receipts {  // named: the unity build shares one anonymous namespace with receipt_test.cpp

const tape::opaque::OpaqueRegistry& no_tape() {
  static const tape::opaque::OpaqueRegistry r;  // the fp64 trainer takes the hand-written backward
  return r;
}

std::string corpus() {
  std::string s;
  for (int i = 0; i < 83; ++i) s += static_cast<char>('a' + (i * 7) % 26);
  return s;
}

// What a forger changes at step `at`: the trace and the state after; training goes on from it.
struct Forgery {
  std::size_t at = ~std::size_t{0};
  std::function<void(const nl::TrainerState64& before, nl::StepTrace64&, nl::StepReport64&, nl::TrainerState64& after)> result;
};
template <class F>
Forgery forged_at(std::size_t step, F result) {
  Forgery g;
  g.at = step;
  g.result = result;
  return g;
}

// `steps` fp64 steps of a K-level model (periods 1, 4: level 1 frozen at steps 1-3, 5-7, ...),
// every one recorded.
std::vector<std::string> train(std::size_t steps, nl::RuleKind rule, std::size_t levels, nl::FrequencySchedule schedule,
                               const Forgery& forge = {}, double clip = 1.0) {
  nl::MagConfig cfg;
  cfg.vocab = 256, cfg.d = 8, cfg.heads = 2, cfg.seq_len = 8, cfg.window = 8, cfg.rule = rule, cfg.seed = 7;
  cfg.rule_cfg.d = 8, cfg.rule_cfg.d_h = 4, cfg.rule_cfg.m = 4, cfg.rule_cfg.d_c = 8;
  cfg.periods = levels == 1 ? std::vector<std::size_t>{1} : std::vector<std::size_t>{1, 4};
  cfg.schedule = schedule;
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 3, o.total_steps = 40, o.clip = clip;
  const std::string data = corpus();
  nl::Trainer64 t(cfg, nl::MagParams<double>::init(cfg), o);
  nl_audit::ReceiptRecorder rec({false, 1, "test", common::sha256_hex(data), data.size(), "hand_written"}, {});
  const std::size_t L = cfg.seq_len, chunks = (data.size() - 1) / L;
  std::vector<std::size_t> ids(L), tg(L);
  std::vector<std::string> lines;
  nl::StepTrace64 trace;
  for (std::size_t n = 0; n < steps; ++n) {
    const std::size_t c = n % chunks;
    const nl::TrainerState64 before = t.state();
    if (c == 0 && n > 0) t.reset_context();
    for (std::size_t i = 0; i < L; ++i) {
      ids[i] = static_cast<unsigned char>(data[c * L + i]), tg[i] = static_cast<unsigned char>(data[c * L + i + 1]);
    }
    auto r = t.build_step(no_tape(), ids, tg, nl::GradientPath::hand_written, &trace);
    REQUIRE(r.ok());
    nl::TrainerState64 after = t.state();
    if (n == forge.at) {
      forge.result(before, trace, *r, after);
      t = nl::Trainer64::from_state(after).value();
    }
    lines.push_back(rec.record(before, {c, c * L, c == 0 && n > 0, ids, tg}, *r, trace, after));
  }
  return lines;
}

// The rules that failed, as "5 8".
std::string failing(const std::vector<std::string>& lines, nl_audit::VerifyOptions o = {}) {
  nl_audit::StreamVerifier v(std::move(o));
  std::int64_t n = 0;
  for (const std::string& l : lines) {
    auto s = v.add(l, "r.jsonl", ++n);
    REQUIRE_MESSAGE(s.ok(), s.error().to_string());
  }
  std::set<unsigned> rules;
  for (const nl_audit::Failure& f : v.failures()) rules.insert(f.rule);
  std::string out;
  for (unsigned r : rules) {
    if (!out.empty()) out += ' ';  // appends: GCC 12 at -O3 misreads a literal + a temporary
    out += std::to_string(r);
  }
  return out;
}

// x changed in its 12th significant digit: far below fp32's resolution, far above fp64's.
double twelfth_digit(double x) { return x * (1.0 + 3e-11); }

void nudge(std::vector<double>& v, std::size_t k) {
  while (k < v.size() && v[k] == 0) ++k;
  REQUIRE(k < v.size());
  v[k] = twelfth_digit(v[k]);
}

}  // namespace fp64_receipts

TEST_CASE("nl_audit fp64: receipts carry f64 tensors and the precision, and verify under every rule (K = 1, 2; fixed, learned)") {
  using namespace fp64_receipts;
  struct Shape {
    nl::RuleKind rule;
    std::size_t levels;
    nl::FrequencySchedule schedule;
  };
  for (const Shape& s : {Shape{nl::RuleKind::delta, 1, nl::FrequencySchedule::fixed}, Shape{nl::RuleKind::titans, 2, nl::FrequencySchedule::fixed},
                         Shape{nl::RuleKind::delta, 2, nl::FrequencySchedule::learned}, Shape{nl::RuleKind::titans, 2, nl::FrequencySchedule::learned}}) {
    CAPTURE(nl::to_string(s.rule));
    CAPTURE(s.levels);
    const std::vector<std::string> lines = train(10, s.rule, s.levels, s.schedule);
    const nl_audit::Receipt r = nl_audit::read_receipt(lines[3], "x", 4).value();
    CHECK(r.fp64);
    CHECK(r.gradient_path == "hand_written");
    CHECK(r.gradients.front().dtype == nl_audit::Dtype::f64);
    CHECK(r.after.tensors.front().dtype == nl_audit::Dtype::f64);
    CHECK(lines[3].find("\"precision\":\"fp64\"") != std::string::npos);
    CHECK(r.model_sha256 != nl_audit::model_digest(r.cfg, r.opt));  // the fp32 model's digest differs
    CHECK(failing(lines).empty());
    CHECK(train(10, s.rule, s.levels, s.schedule) == lines);  // same run, same bytes
  }
}

TEST_CASE("nl_audit fp64: honest steps that are all clipped pass way (b), whose clip factor bound holds the norm's own error") {
  using namespace fp64_receipts;
  const std::vector<std::string> lines = train(12, nl::RuleKind::titans, 2, nl::FrequencySchedule::fixed, {}, 1e-3);
  for (const std::string& l : lines) REQUIRE(nl_audit::read_receipt(l, "x", 1).value().clip_scale.has_value());
  CHECK(failing(lines).empty());
}

TEST_CASE("nl_audit fp64: every tampering is caught by the rule that owns it, and passes when that rule is disabled") {
  using namespace fp64_receipts;
  struct Case {
    std::string what;
    Forgery forge;
    unsigned rule;
  };
  auto at5 = [](auto f) { return forged_at(5, f); };
  const std::vector<Case> cases = {
      {"a gradient entry in its 12th significant digit",
       at5([](const nl::TrainerState64& b, nl::StepTrace64& t, nl::StepReport64& r, nl::TrainerState64& a) {
         nudge(t.gradients.w_q, 3);
         nl_audit_test::redo_update(b, t, r.pulse, a);
       }),
       5},
      {"an m entry", at5([](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64&, nl::TrainerState64& a) { nudge(a.adam.m.e, 40); }), 8},
      // Step 5: level 1 (period 4) is frozen, its error buffer holds step 5's contribution.
      {"a frozen level's error buffer",
       at5([](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64&, nl::TrainerState64& a) { nudge(a.buffer_sums[1].w_q, 0); }), 9},
      {"the learning rate", at5([](const nl::TrainerState64& b, nl::StepTrace64& t, nl::StepReport64& r, nl::TrainerState64& a) {
         t.lr *= 1.0 + 1e-12;
         nl_audit_test::redo_update(b, t, r.pulse, a);
       }),
       7},
      {"the loss in its 12th significant digit",
       at5([](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64& r, nl::TrainerState64&) { r.loss = twelfth_digit(r.loss); }), 4},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::vector<std::string> lines = train(12, nl::RuleKind::delta, 2, nl::FrequencySchedule::fixed, c.forge);
    nl_audit::VerifyOptions o;
    o.data = corpus();
    CHECK(failing(lines, o) == std::to_string(c.rule));
    o.disabled[c.rule] = true;
    CHECK(failing(lines, o).empty());
  }
}

TEST_CASE("nl_audit fp64: a receipt whose tensors are f32 under the fp64 precision is refused with the JSON path") {
  using namespace fp64_receipts;
  std::string line = train(1, nl::RuleKind::delta, 1, nl::FrequencySchedule::fixed).front();
  const std::size_t at = line.find("\"dtype\":\"f64\"");
  REQUIRE(at != std::string::npos);
  line.replace(at, 13, "\"dtype\":\"f32\"");
  auto r = nl_audit::read_receipt(line, "r.jsonl", 1);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().to_string().find("dtype") != std::string::npos);
  CHECK(r.error().to_string().find("fp64") != std::string::npos);
}

TEST_CASE("nl_audit fp64: way (b) holds the stages' formulas at binary64: an honest step passes, a 12th-digit m entry fails rule 8") {
  using namespace fp64_receipts;
  for (bool forge : {false, true}) {
    CAPTURE(forge);
    Forgery f;
    if (forge) {
      f.at = 5;
      f.result = [](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64&, nl::TrainerState64& a) { nudge(a.adam.m.e, 40); };
    }
    const std::vector<std::string> lines = train(12, nl::RuleKind::delta, 2, nl::FrequencySchedule::fixed, f);
    const nl_audit::Receipt r = nl_audit::read_receipt(lines[5], "x", 6).value();
    const nl_audit::Receipt prev = nl_audit::read_receipt(lines[4], "x", 5).value();
    const nl::TrainerState64 before = nl_audit::decode_state<double>(prev.after, r.cfg, r.opt).value();  // every = 1
    const nl::StepTrace64 stored = nl_audit::decode_gradients<double>(r.gradients, r.cfg, nl::Pulse{r.pulse}).value();
    const nl::TrainerState64 after = nl_audit::decode_state<double>(r.after, r.cfg, r.opt).value();
    std::vector<nl_audit::Failure> failures;
    (void)nl_audit::check_fp64(nl_audit::BasicFp64Case<double>{r, before, r.tokens->ids, r.tokens->targets, stored, after},
                               [&](nl_audit::Failure x) { failures.push_back(std::move(x)); });
    if (!forge) {
      CHECK(failures.empty());
    } else {
      // The moment, and the parameter its update (from the stored moment) then moves: both rule 8's.
      REQUIRE(failures.size() == 2);
      CHECK(failures[0].rule == 8);
      CHECK(failures[1].rule == 8);
      CHECK(failures[0].tensor == "adam_m/E");
      CHECK(failures[1].tensor == "params/E");
    }
  }
}

namespace fp64_receipts {

// The stream verified with --cross-machine (bits not held): way (b) is the only judge of values.
nl_audit::StreamVerifier cross_verified(const std::vector<std::string>& lines, std::array<bool, 10> disabled = {}, unsigned threads = 1) {
  nl_audit::VerifyOptions o;
  o.cross_machine = true;
  o.disabled = disabled;
  o.threads = threads;
  nl_audit::StreamVerifier v(std::move(o));
  std::int64_t n = 0;
  for (const std::string& l : lines) {
    auto s = v.add(l, "r.jsonl", ++n);
    REQUIRE_MESSAGE(s.ok(), s.error().to_string());
  }
  return v;
}

// The entry of largest magnitude: its own bound is a few binary64 roundoffs of it, far below a
// change in its 12th digit.
double& largest_entry(std::vector<double>& v) {
  REQUIRE(!v.empty());
  return *std::max_element(v.begin(), v.end(), [](double x, double y) { return std::abs(x) < std::abs(y); });
}

// Another machine's honest step, as far as its last bits go: every nonzero attention gradient,
// level 0's context entries and the loss one binary64 ulp away (a BLAS that sums in another order
// moves them so), the update redone from those gradients. (A frozen level's context is a copy,
// the same bits everywhere: moving it is a forgery.)
Forgery last_bits_at(std::size_t step) {
  return forged_at(step, [](const nl::TrainerState64& b, nl::StepTrace64& t, nl::StepReport64& r, nl::TrainerState64& a) {
    auto ulp = [](double& x) { x = x == 0 ? 0.0 : std::nextafter(x, 2 * x); };
    nl::MagParams<double>& g = t.gradients;
    for (std::vector<double>* w : {&g.e, &g.w_q, &g.w_k, &g.w_v, &g.w_o, &g.u_emb}) std::ranges::for_each(*w, ulp);
    std::ranges::for_each(a.context.levels[0], ulp);
    ulp(r.loss);
    nl_audit_test::redo_update(b, t, r.pulse, a);
  });
}

}  // namespace fp64_receipts

TEST_CASE("nl_audit fp64: --cross-machine: way (b) alone catches a 12th-digit change in a gradient, the loss and a context entry") {
  using namespace fp64_receipts;
  struct Case {
    std::string what;
    Forgery forge;
    unsigned rule;
    std::string tensor;
  };
  auto at5 = [](auto f) { return forged_at(5, f); };
  const std::vector<Case> cases = {
      {"a gradient entry",
       at5([](const nl::TrainerState64& b, nl::StepTrace64& t, nl::StepReport64& r, nl::TrainerState64& a) {
         double& x = largest_entry(t.gradients.w_q);
         x = twelfth_digit(x);
         nl_audit_test::redo_update(b, t, r.pulse, a);
       }),
       5, "grad/W_Q"},
      {"the loss", at5([](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64& r, nl::TrainerState64&) { r.loss = twelfth_digit(r.loss); }),
       4, "loss"},
      {"a context entry",
       at5([](const nl::TrainerState64&, nl::StepTrace64&, nl::StepReport64&, nl::TrainerState64& a) {
         double& x = largest_entry(a.context.levels[0]);
         x = twelfth_digit(x);
       }),
       9, "context/0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::vector<std::string> lines = train(8, nl::RuleKind::delta, 2, nl::FrequencySchedule::fixed, c.forge);
    const nl_audit::StreamVerifier v = cross_verified(lines);
    CHECK(v.not_bitwise() > 0);  // way (a) saw the change and only counted it
    CHECK(v.normwise_steps() == 0);
    REQUIRE(v.failure_count() > 0);
    const nl_audit::Failure& f = v.failures().front();
    CHECK(f.rule == c.rule);
    CHECK(f.step == 5);
    CHECK(f.tensor == c.tensor);
    CHECK(f.tolerance != "bitwise");
    // Way (b) of a step on its own thread beside way (a) of the next: the same report.
    const nl_audit::StreamVerifier two = cross_verified(lines, {}, 2);
    CHECK(two.failure_count() == v.failure_count());
    CHECK(two.failures().front().tensor == f.tensor);
    CHECK(two.failures().front().recomputed == f.recomputed);
    std::array<bool, 10> off{};
    off[c.rule] = true;
    CHECK(cross_verified(lines, off).failure_count() == 0);
  }
}

TEST_CASE("nl_audit fp64: an honest run of every rule passes with --cross-machine, and so do its last bits moved (K = 2; learned too)") {
  using namespace fp64_receipts;
  struct Shape {
    nl::RuleKind rule;
    nl::FrequencySchedule schedule;
  };
  std::vector<Shape> shapes;
  for (nl::RuleKind rule : nl::kAllRuleKinds) shapes.push_back({rule, nl::FrequencySchedule::fixed});
  shapes.push_back({nl::RuleKind::delta, nl::FrequencySchedule::learned});
  shapes.push_back({nl::RuleKind::titans, nl::FrequencySchedule::learned});
  std::uint64_t normwise = 0;
  for (const Shape& s : shapes) {
    CAPTURE(nl::to_string(s.rule));
    CAPTURE(s.schedule == nl::FrequencySchedule::learned);
    for (bool moved : {false, true}) {
      CAPTURE(moved);
      const std::vector<std::string> lines = train(6, s.rule, 2, s.schedule, moved ? last_bits_at(3) : Forgery{});
      const nl_audit::StreamVerifier v = cross_verified(lines);
      CHECK(v.receipts() == 6);
      CHECK(v.failure_count() == 0);
      if (v.failure_count() > 0) MESSAGE(v.failures().front().tensor, " ", v.failures().front().message);
      CHECK((v.not_bitwise() > 0) == moved);  // way (a) saw the moved bits, way (b) held them
      normwise += v.normwise_steps();
    }
  }
  MESSAGE("steps judged norm-wise: ", normwise, " of ", 2 * 6 * shapes.size());
}
