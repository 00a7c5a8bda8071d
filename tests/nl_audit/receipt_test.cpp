// nltrain's step receipts (nl_audit): a real run's receipts verify under every rule, in full and
// compact form; each tampering is caught by the rule that owns it (the set of failing rules is
// pinned, so a rule that stops catching its case, or starts catching another's, fails here);
// malformed receipts are refused with the JSON path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "nl_audit/recorder.hpp"
#include "nl_audit/stages.hpp"
#include "nl_audit/verify.hpp"
#include "redo_update.hpp"
#include "support/nl_registry.hpp"

namespace {

nl::MagConfig config(std::size_t levels, std::uint64_t seed = 7) {
  nl::MagConfig c;
  c.vocab = 256, c.d = 8, c.heads = 2, c.seq_len = 8, c.window = 8, c.rule = nl::RuleKind::delta, c.seed = seed;
  c.rule_cfg.d = 8;
  c.periods = levels == 1 ? std::vector<std::size_t>{1} : std::vector<std::size_t>{1, 4};
  return c;
}

std::string corpus() {
  std::string s;
  for (int i = 0; i < 83; ++i) s += static_cast<char>('a' + (i * 7) % 26);
  return s;
}

struct Run {
  std::vector<std::string> lines;
  std::string data;
};

// What a forger changes at one step, keeping every later number consistent: the tokens the step
// reads, or what the step produced (its trace and the state after). Training goes on from the
// forged state, so only the rule that owns the forged number can tell.
struct Forgery {
  std::size_t at = ~std::size_t{0};
  std::function<void(std::vector<std::size_t>& ids, std::vector<std::size_t>& targets)> tokens;
  std::function<void(const nl::TrainerState& before, nl::StepTrace&, nl::StepReport&, nl::TrainerState& after)> result;
};

// Trains `steps` steps on the tape (as nltrain does) and records every receipt.
Run train(std::size_t steps, bool compact, std::uint64_t seed = 7, double clip = 1.0, const Forgery& forge = {}) {
  const nl::MagConfig cfg = config(2, seed);
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 3, o.total_steps = 40, o.clip = clip;
  Run run{{}, corpus()};
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), o);
  nl_audit::ReceiptRecorder rec({compact, 1, "test", common::sha256_hex(run.data), run.data.size(), "tape"}, {});
  const std::size_t L = cfg.seq_len, chunks = (run.data.size() - 1) / L;
  std::vector<std::size_t> ids(L), tg(L);
  nl::StepTrace trace;  // one for the run, as nltrain keeps it: a field left from the step before would show
  for (std::size_t n = 0; n < steps; ++n) {
    const std::size_t c = n % chunks;
    const nl::TrainerState before = t.state();
    if (c == 0 && n > 0) t.reset_context();
    for (std::size_t i = 0; i < L; ++i) ids[i] = static_cast<unsigned char>(run.data[c * L + i]), tg[i] = static_cast<unsigned char>(run.data[c * L + i + 1]);
    if (n == forge.at && forge.tokens) forge.tokens(ids, tg);
    auto r = t.build_step(testsupport::nl_registry(), ids, tg, nl::GradientPath::tape, &trace);
    REQUIRE(r.ok());
    nl::TrainerState after = t.state();
    if (n == forge.at && forge.result) {
      forge.result(before, trace, *r, after);
      t = nl::Trainer::from_state(after).value();
    }
    run.lines.push_back(rec.record(before, {c, c * L, c == 0 && n > 0, ids, tg}, *r, trace, after));
  }
  return run;
}

// The failing rules as "5 8", with the first failures' texts after "|" (for the report).
std::string rules_text(const std::set<unsigned>& rules) {
  std::string s;
  for (unsigned r : rules) {
    if (!s.empty()) s += ' ';  // appends: GCC 12 at -O3 misreads a literal + a temporary
    s += std::to_string(r);
  }
  return s;
}

std::set<unsigned> failing(const std::vector<std::string>& lines, nl_audit::VerifyOptions o = {}) {
  nl_audit::StreamVerifier v(std::move(o));
  std::int64_t n = 0;
  for (const std::string& l : lines) {
    auto s = v.add(l, "r.jsonl", ++n);
    REQUIRE_MESSAGE(s.ok(), s.error().to_string());
  }
  std::set<unsigned> out;
  for (const nl_audit::Failure& f : v.failures()) {
    out.insert(f.rule);
    if (out.size() == 1) MESSAGE("rule " << f.rule << " step " << f.step << " " << f.tensor << ": " << f.message << " stored " << f.stored << " recomputed " << f.recomputed << " tol " << f.tolerance);
  }
  return out;
}

// What a forger does after moving receipts around: every receipt given the state before its
// step (so each one recomputes on its own), then renumbered and re-linked by digest.
std::vector<std::string> relink(std::vector<std::string> lines, const std::vector<nl_audit::StateSection>& befores) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto r = nl_audit::read_receipt(lines[i], "x", 1);
    REQUIRE(r.ok());
    r->before = befores[i];
    r->index = i;
    r->previous_sha256 = i == 0 ? std::nullopt : std::optional(common::sha256_hex(lines[i - 1]));
    lines[i] = nl_audit::write_receipt(*r);
  }
  return lines;
}

// The state before each receipt's step: its own `before`, or the previous receipt's `after`.
std::vector<nl_audit::StateSection> befores_of(const std::vector<std::string>& lines) {
  std::vector<nl_audit::StateSection> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto r = nl_audit::read_receipt(lines[i], "x", 1).value();
    out.push_back(r.before ? *r.before : nl_audit::read_receipt(lines[i - 1], "x", 1).value().after);
  }
  return out;
}

float seventh_digit(float x) { return x * (1.0f + 3e-6f); }

nl_audit::VerifyOptions without(unsigned rule) {
  nl_audit::VerifyOptions o;
  o.disabled[rule] = true;
  return o;
}

}  // namespace

TEST_CASE("nl_audit: a real run's receipts verify under all nine rules, full and compact; same run, same bytes") {
  const Run full = train(14, false);
  CHECK(failing(full.lines).empty());
  CHECK(train(14, false).lines == full.lines);
  nl_audit::StreamVerifier v({});
  for (std::size_t i = 0; i < full.lines.size(); ++i) REQUIRE(v.add(full.lines[i], "r", static_cast<std::int64_t>(i + 1)).ok());
  for (unsigned rule = 1; rule <= 9; ++rule) CHECK_MESSAGE(v.tally()[rule].checked >= full.lines.size(), "rule " << rule);
  const Run compact = train(14, true);
  CHECK(compact.lines.front().size() > compact.lines.back().size() * 3);  // only the first carries a state
  nl_audit::VerifyOptions with_data;
  with_data.data = compact.data;
  CHECK(failing(compact.lines, with_data).empty());
  nl_audit::StreamVerifier no_data({});
  CHECK(no_data.add(compact.lines[0], "r", 1).error().code() == common::ErrorCode::invalid_argument);
  // Runs clipped at every step and at some steps only (the clip factor, and its absence after a
  // clipped step).
  CHECK(failing(train(6, false, 7, 1e-3).lines).empty());
  CHECK(failing(train(14, false, 7, 0.03).lines).empty());
}

// The first nonzero entry at or after k of `v`, scaled in its 7th significant digit.
void nudge(std::vector<float>& v, std::size_t k) {
  while (k < v.size() && v[k] == 0) ++k;
  REQUIRE(k < v.size());
  v[k] = seventh_digit(v[k]);
}

TEST_CASE("nl_audit: every tampering is caught by the rule that owns it, and passes when that rule is disabled") {
  const std::vector<std::string> good = train(12, false).lines;
  const std::vector<nl_audit::StateSection> befores = befores_of(good);
  struct Case {
    std::string what;
    std::vector<std::string> lines;
    unsigned rule;
  };
  std::vector<Case> cases;
  auto forged = [](std::size_t at, auto result) {
    Forgery f;
    f.at = at;
    f.result = result;
    return train(12, false, 7, 1.0, f).lines;
  };
  cases.push_back({"a gradient entry in its 7th digit", forged(5, [](const nl::TrainerState& b, nl::StepTrace& t, nl::StepReport& r, nl::TrainerState& a) {
                     nudge(t.gradients.w_q, 3);
                     nl_audit_test::redo_update(b, t, r.pulse, a);
                   }), 5});
  cases.push_back({"an m entry", forged(5, [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport&, nl::TrainerState& a) { nudge(a.adam.m.e, 40); }), 8});
  cases.push_back({"a v entry", forged(5, [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport&, nl::TrainerState& a) { nudge(a.adam.v.w_o, 2); }), 8});
  cases.push_back({"the learning rate", forged(5, [](const nl::TrainerState& b, nl::StepTrace& t, nl::StepReport& r, nl::TrainerState& a) {
                     t.lr *= 1.000001;
                     nl_audit_test::redo_update(b, t, r.pulse, a);
                   }), 7});
  cases.push_back({"the loss", forged(5, [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport& r, nl::TrainerState&) { r.loss = seventh_digit(r.loss); }), 4});
  cases.push_back({"the clip norm", forged(5, [](const nl::TrainerState&, nl::StepTrace& t, nl::StepReport&, nl::TrainerState&) { t.grad_norm *= 1.0000001; }), 6});
  // Periods {1, 4}: level 1 is frozen at step 5 and its error buffer holds step 5's contribution.
  cases.push_back({"a frozen level's error buffer", forged(5, [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport&, nl::TrainerState& a) {
                     nudge(a.buffer_sums[1].w_q, 0);
                   }), 9});
  cases.push_back({"a frozen level's context", forged(5, [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport&, nl::TrainerState& a) {
                     nudge(a.context.levels[1], 0);
                   }), 9});
  {
    Forgery f;
    f.at = 5;
    f.tokens = [](std::vector<std::size_t>& ids, std::vector<std::size_t>& tg) {
      ids[2] ^= 1;
      tg[1] = ids[2];
    };
    cases.push_back({"the data (tokens and targets, consistently)", train(12, false, 7, 1.0, f).lines, 3});
  }
  {
    std::vector<nl_audit::StateSection> b = befores;
    std::vector<float> w = nl_audit::f32_values(b[6].tensors[3]).value();  // params/W_V
    REQUIRE(b[6].tensors[3].name == "params/W_V");
    nudge(w, 1);
    b[6].tensors[3] = nl_audit::f32_entry("params/W_V", b[6].tensors[3].shape, w, true);
    // Receipt 6 recomputed from the changed state, so its own numbers hold.
    nl_audit::Receipt r6 = nl_audit::read_receipt(good[6], "x", 1).value();
    nl::TrainerState s = nl_audit::decode_state(b[6], r6.cfg, r6.opt).value();
    nl::Trainer t = nl::Trainer::from_state(s).value();
    nl::StepTrace trace;
    auto rep = t.build_step(testsupport::nl_registry(), r6.tokens->ids, r6.tokens->targets, nl::GradientPath::tape, &trace);
    REQUIRE(rep.ok());
    nl_audit::ReceiptRecorder rec({false, 1, "test", r6.data_sha256, r6.data_bytes, "tape"}, {});
    std::vector<std::string> lines(good.begin(), good.begin() + 6);
    lines.push_back(rec.record(s, {r6.chunk, r6.offset, r6.context_reset, r6.tokens->ids, r6.tokens->targets}, *rep, trace, t.state()));
    std::vector<nl_audit::StateSection> bl(b.begin(), b.begin() + 7);
    cases.push_back({"a parameter changed between two receipts", relink(lines, bl), 2});
  }
  {
    std::vector<std::string> swapped = good;
    std::vector<nl_audit::StateSection> b = befores;
    std::swap(swapped[4], swapped[5]), std::swap(b[4], b[5]);
    cases.push_back({"two steps swapped", relink(swapped, b), 2});
    std::vector<std::string> dropped = good;
    b = befores;
    dropped.erase(dropped.begin() + 4), b.erase(b.begin() + 4);
    cases.push_back({"a step dropped", relink(dropped, b), 2});
    std::vector<std::string> repeated = good;
    // Step 4 twice. Rebuilt by appends: GCC 12 at -O3 misreads an insert into the middle of
    // these vectors (-Warray-bounds).
    repeated.clear();
    b.clear();
    for (std::size_t i = 0; i < good.size(); ++i) {
      repeated.push_back(good[i]), b.push_back(befores[i]);
      if (i == 4) repeated.push_back(good[i]), b.push_back(befores[i]);
    }
    cases.push_back({"a step repeated", relink(repeated, b), 2});
    const std::vector<std::string> other = train(12, false, 8).lines;
    const std::vector<nl_audit::StateSection> ob = befores_of(other);
    std::vector<std::string> spliced(good.begin(), good.begin() + 6);
    b.assign(befores.begin(), befores.begin() + 6);
    spliced.insert(spliced.end(), other.begin() + 6, other.end()), b.insert(b.end(), ob.begin() + 6, ob.end());
    cases.push_back({"two runs spliced", relink(spliced, b), 2});
  }
  for (const Case& c : cases) {
    CAPTURE(c.what);
    nl_audit::VerifyOptions o;
    o.data = corpus();
    CHECK(rules_text(failing(c.lines, o)) == std::to_string(c.rule));
    nl_audit::VerifyOptions off = without(c.rule);
    off.data = corpus();
    CHECK(rules_text(failing(c.lines, off)).empty());
  }
}

// Every line of `lines` added to a verifier with options `o`, each accepted as well-formed.
nl_audit::StreamVerifier verified(const std::vector<std::string>& lines, nl_audit::VerifyOptions o) {
  nl_audit::StreamVerifier v(std::move(o));
  for (std::size_t i = 0; i < lines.size(); ++i) REQUIRE(v.add(lines[i], "r", static_cast<std::int64_t>(i + 1)).ok());
  return v;
}

TEST_CASE("nl_audit: --cross-machine holds values whose bits differ to the fp64 bound, which catches a coarse forgery") {
  nl_audit::VerifyOptions cross;
  cross.cross_machine = true;
  {
    const nl_audit::StreamVerifier v = verified(train(12, false).lines, cross);
    CHECK(v.failure_count() == 0);
    CHECK(v.not_bitwise() == 0);     // this machine reproduces its own bits
    CHECK(v.normwise_steps() == 0);  // every step's fp64 bounds proven entry by entry
  }
  Forgery f;
  f.at = 5;
  f.result = [](const nl::TrainerState& b, nl::StepTrace& t, nl::StepReport& r, nl::TrainerState& a) {
    // The step's largest gradient entry, 1% off: beyond (b)'s norm-wise bound (about 0.05% of it).
    float* largest = &t.gradients.e[0];
    for (std::vector<float>* w : {&t.gradients.e, &t.gradients.w_q, &t.gradients.w_k, &t.gradients.w_v, &t.gradients.w_o, &t.gradients.u_emb}) {
      for (float& x : *w) largest = std::abs(x) > std::abs(*largest) ? &x : largest;
    }
    *largest *= 1.01f;
    nl_audit_test::redo_update(b, t, r.pulse, a);
  };
  const nl_audit::StreamVerifier v = verified(train(12, false, 7, 1.0, f).lines, cross);
  CHECK(v.not_bitwise() > 0);
  REQUIRE(v.failure_count() > 0);
  CHECK(v.failures().front().rule == 5);
  CHECK(v.failures().front().tolerance != "bitwise");
}

TEST_CASE("nl_audit: --cross-machine: (b)'s per-entry bounds catch a 0.1% change that the norm-wise tolerance accepts") {
  nl_audit::VerifyOptions cross;
  cross.cross_machine = true;
  Forgery f;
  f.at = 5;
  f.result = [](const nl::TrainerState& b, nl::StepTrace& t, nl::StepReport& r, nl::TrainerState& a) {
    // An output-projection gradient entry near a tenth of the step's largest, 0.1% off: inside
    // the norm-wise tolerance (4096 fp32 roundoffs of the entry plus the largest, about 0.27% of
    // the entry), outside the bound carried for it.
    double scale = 0;
    for (std::vector<float>* w : {&t.gradients.e, &t.gradients.w_q, &t.gradients.w_k, &t.gradients.w_v, &t.gradients.w_o, &t.gradients.u_emb}) {
      for (float x : *w) scale = std::max(scale, static_cast<double>(std::abs(x)));
    }
    float* pick = &t.gradients.w_o[0];
    for (float& x : t.gradients.w_o) pick = std::abs(std::abs(x) - 0.1 * scale) < std::abs(std::abs(*pick) - 0.1 * scale) ? &x : pick;
    *pick *= 1.001f;
    nl_audit_test::redo_update(b, t, r.pulse, a);
  };
  const nl_audit::StreamVerifier v = verified(train(12, false, 7, 1.0, f).lines, cross);
  REQUIRE(v.failure_count() > 0);
  CHECK(v.failures().front().rule == 5);
  CHECK(v.failures().front().step == 5);
  CHECK(v.failures().front().tensor == "grad/W_O");
}

TEST_CASE("nl_audit: malformed receipts are refused naming the JSON path; one spelling per receipt") {
  const std::vector<std::string> good = train(2, false).lines;
  auto error_of = [](const std::string& line) {
    nl_audit::StreamVerifier v({});
    auto s = v.add(line, "r.jsonl", 3);
    REQUIRE(!s.ok());
    return s.error().to_string();
  };
  std::string l = good[0];
  CHECK(error_of(l.substr(0, l.size() - 1)).find("r.jsonl:3") != std::string::npos);
  CHECK(error_of(" " + l).find("canonical") != std::string::npos);
  std::string dup = l;
  dup.insert(1, "\"format\":\"tensor-step\",");
  CHECK(error_of(dup).find("canonical") != std::string::npos);
  std::string unknown = l;
  unknown.insert(unknown.size() - 1, ",\"x\":1");
  CHECK(error_of(unknown).find("x") != std::string::npos);
  std::string bad_digest = l;
  const auto at = bad_digest.find("\"sha256\":\"", bad_digest.find("\"gradients\"")) + 10;
  bad_digest[at] = bad_digest[at] == '0' ? '1' : '0';
  CHECK(error_of(bad_digest).find("/gradients/tensors/0/sha256") != std::string::npos);
  // A data string is compared with the line without being encoded again: an escaped character
  // in it (the same value, another spelling) and a space after it are still refused.
  const std::size_t data = l.find("\"data\":\"", l.find("\"after\"")) + 8;
  REQUIRE(data > 8);
  std::string escaped = l;
  const char first = escaped[data];
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(first));
  escaped.replace(data, 1, hex);
  CHECK(error_of(escaped).find("canonical") != std::string::npos);
  std::string spaced = l;
  spaced.insert(spaced.find('"', data), 1, ' ');
  CHECK(!error_of(spaced).empty());
  CHECK(error_of(l + " ").find("canonical") != std::string::npos);
}

// The verifier takes the recomputed state as the stages' result when the receipt's inputs to
// them are the recomputed ones (verify.cpp): sound only if run_stages from a step's own trace
// gives exactly the trainer's state after it. Checked at every step of runs with frozen levels
// (K = 2), clipped at every step (clip 0.05) and at none (clip 1e9).
TEST_CASE("nl_audit: stages from the trainer's own inputs give the trainer's state, bit for bit") {
  for (const double clip : {0.05, 1e9}) {
    const nl::MagConfig cfg = config(2);
    nl::AdamWConfig o;
    o.lr = 1e-2, o.warmup = 3, o.total_steps = 40, o.clip = clip;
    nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), o);
    const std::string data = corpus();
    const std::size_t L = cfg.seq_len, chunks = (data.size() - 1) / L;
    std::vector<std::size_t> ids(L), tg(L);
    std::size_t clipped = 0, frozen = 0;
    for (std::size_t n = 0; n < 2 * chunks + 3; ++n) {
      const std::size_t c = n % chunks;
      if (c == 0 && n > 0) t.reset_context();
      const nl::TrainerState before = t.state();
      for (std::size_t i = 0; i < L; ++i) ids[i] = static_cast<unsigned char>(data[c * L + i]), tg[i] = static_cast<unsigned char>(data[c * L + i + 1]);
      nl::StepTrace trace;
      auto r = t.build_step(testsupport::nl_registry(), ids, tg, nl::GradientPath::hand_written, &trace);
      REQUIRE(r.ok());
      const nl::TrainerState want = t.state();
      const nl_audit::StageResult got = nl_audit::run_stages(before, trace, r->pulse, want.context);
      CAPTURE(n);
      CHECK(got.grad_norm == trace.grad_norm);
      CHECK(got.clip_scale == trace.clip_scale);
      CHECK(got.after.params.to_flat() == want.params.to_flat());
      CHECK(got.after.adam.m.to_flat() == want.adam.m.to_flat());
      CHECK(got.after.adam.v.to_flat() == want.adam.v.to_flat());
      CHECK(got.after.adam.tau == want.adam.tau);
      CHECK(got.after.adam.tau_level == want.adam.tau_level);
      CHECK(got.after.step == want.step);
      CHECK(got.after.buffer_counts == want.buffer_counts);
      for (std::size_t l = 0; l < cfg.levels(); ++l) CHECK(got.after.buffer_sums[l].to_flat() == want.buffer_sums[l].to_flat());
      clipped += trace.clip_scale.has_value();
      frozen += !r->pulse.is_active(1);
    }
    CHECK((clip < 1 ? clipped > 0 : clipped == 0));
    CHECK(frozen > 0);
  }
}

// Way (b) of a step runs beside way (a) of the next one with two threads: the failures, and
// their order, must be those of one thread. A forged m entry at step 5 fails rule 8 both ways
// (the fp64 bound of an m entry is a few units in its last place); a foreign receipt at step 7
// fails the chain while step 6's way (b) may still run.
TEST_CASE("nl_audit: two threads report the same failures in the same order as one") {
  Forgery f;
  f.at = 5;
  f.result = [](const nl::TrainerState&, nl::StepTrace&, nl::StepReport&, nl::TrainerState& a) { nudge(a.adam.m.e, 40); };
  std::vector<std::string> lines = train(12, false, 7, 1.0, f).lines;
  lines[7] = train(12, false, 8).lines[7];
  auto records = [&](unsigned threads) {
    nl_audit::VerifyOptions o;
    o.threads = threads;
    nl_audit::StreamVerifier v(std::move(o));
    std::int64_t n = 0;
    for (const std::string& l : lines) REQUIRE(v.add(l, "r.jsonl", ++n).ok());
    std::vector<std::string> out;
    for (const nl_audit::Failure& x : v.failures()) {
      out.push_back(std::to_string(x.rule) + " " + std::to_string(x.line) + " " + std::to_string(x.step) + " " + x.tensor + " " +
                    std::to_string(x.index.value_or(0)) + " " + x.stored + " " + x.recomputed + " " + x.tolerance + " " + x.message);
    }
    out.push_back("count " + std::to_string(v.failure_count()));
    for (const nl_audit::RuleTally& t : v.tally()) out.push_back(std::to_string(t.checked) + "/" + std::to_string(t.failed));
    return out;
  };
  const std::vector<std::string> one = records(1);
  auto has = [&](const std::string& prefix, const std::string& text) {
    return std::any_of(one.begin(), one.end(), [&](const std::string& r) { return r.starts_with(prefix) && r.find(text) != std::string::npos; });
  };
  REQUIRE(has("8 6 5 ", "fp64 bound"));  // rule 8, line 6, step 5, by way (b)
  REQUIRE(has("2 8 7 ", ""));            // rule 2 at line 8 (step 7)
  CHECK(records(2) == one);
  CHECK(records(3) == one);
}

namespace {

// A run on a file of u16 token ids with vocab 1000 (nltrain train --vocab 1000 --data-format u16):
// the receipts name the data's format, and offsets count bytes of the file (2 per token), unless
// `offset_in_tokens` forges them as token counts.
Run train_u16(std::size_t steps, bool compact, bool offset_in_tokens = false) {
  nl::MagConfig cfg = config(2);
  cfg.vocab = 1000;
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 3, o.total_steps = 40;
  Run run;
  for (std::size_t i = 0; i < 61; ++i) {
    const std::size_t id = (i * 337 + 11) % 1000;  // ids above 255, so a byte reading of the file differs
    run.data += static_cast<char>(id & 0xFF), run.data += static_cast<char>(id >> 8);
  }
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), o);
  nl_audit::ReceiptRecorder rec({compact, 1, "test", common::sha256_hex(run.data), run.data.size(), "tape", nl::TokenFormat::u16}, {});
  const std::size_t L = cfg.seq_len, chunks = (run.data.size() / 2 - 1) / L;
  std::vector<std::size_t> ids(L), tg(L);
  nl::StepTrace trace;
  for (std::size_t n = 0; n < steps; ++n) {
    const std::size_t c = n % chunks;
    const nl::TrainerState before = t.state();
    if (c == 0 && n > 0) t.reset_context();
    for (std::size_t i = 0; i < L; ++i) {
      ids[i] = nl::token_at(run.data, nl::TokenFormat::u16, c * L + i), tg[i] = nl::token_at(run.data, nl::TokenFormat::u16, c * L + i + 1);
    }
    auto r = t.build_step(testsupport::nl_registry(), ids, tg, nl::GradientPath::tape, &trace);
    REQUIRE(r.ok());
    run.lines.push_back(rec.record(before, {c, offset_in_tokens ? c * L : c * L * 2, c == 0 && n > 0, ids, tg}, *r, trace, t.state()));
  }
  return run;
}

}  // namespace

TEST_CASE("nl_audit: a u16 token run with vocab 1000 verifies, full and compact with its data; offsets count bytes") {
  const Run full = train_u16(9, false);  // 7 chunks: the data wraps
  CHECK(full.lines[0].find("\"data\":{\"sha256\":\"" + common::sha256_hex(full.data) + "\",\"bytes\":122,\"format\":\"u16\"}") !=
        std::string::npos);
  CHECK(full.lines[1].find("\"chunk\":1,\"offset\":16,") != std::string::npos);
  CHECK(failing(full.lines).empty());
  nl_audit::VerifyOptions with_data;
  with_data.data = full.data;
  CHECK(failing(full.lines, with_data).empty());
  const Run compact = train_u16(9, true);
  CHECK(failing(compact.lines, with_data).empty());
  // Offsets in tokens are not the receipt's unit: the data rule says so.
  CHECK(failing(train_u16(3, false, true).lines) == std::set<unsigned>{3});
  // The same bytes in the other byte order are another file: refused by its digest.
  nl_audit::VerifyOptions other;
  std::string swapped = full.data;
  for (std::size_t i = 0; i + 1 < swapped.size(); i += 2) std::swap(swapped[i], swapped[i + 1]);
  other.data = swapped;
  nl_audit::StreamVerifier v(other);
  CHECK(v.add(full.lines[0], "r", 1).error().code() == common::ErrorCode::invalid_argument);
}

TEST_CASE("nl_audit: the data's format is spelled one way and its size must be whole tokens") {
  const std::string l = train_u16(1, false).lines[0];
  auto error_of = [](const std::string& line) {
    nl_audit::StreamVerifier v({});
    auto s = v.add(line, "r.jsonl", 1);
    REQUIRE(!s.ok());
    return s.error().to_string();
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string x = l;
    const auto at = x.find(from);
    REQUIRE(at != std::string::npos);
    return x.replace(at, from.size(), to);
  };
  CHECK(error_of(replaced("\"format\":\"u16\"", "\"format\":\"bytes\"")).find("/data/format") != std::string::npos);
  CHECK(error_of(replaced("\"format\":\"u16\"", "\"format\":\"u8\"")).find("/data/format") != std::string::npos);
  CHECK(error_of(replaced("\"bytes\":122,", "\"bytes\":121,")).find("/data/bytes: is not a whole number of 2-byte tokens") !=
        std::string::npos);
  CHECK(error_of(replaced("\"bytes\":122,", "\"bytes\":16,")).find("/data/bytes: is shorter than one chunk") != std::string::npos);
}
