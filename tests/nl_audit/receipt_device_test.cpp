// Receipts of steps run by libgpu's kernels (nltrain --device cpu-launcher|cuda): kernels.device
// names them, and the verifier holds such a step's values to the fp64 bound (way b) instead of
// nl's hand-written bits (way a), which cannot replay the kernels' summation order. A step whose
// bits differ from (a) by roundoff then passes, a coarse forgery still fails; without the label
// the same step fails bitwise; the spelling is strict.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "nl_audit/recorder.hpp"
#include "nl_audit/stages.hpp"
#include "nl_audit/verify.hpp"
#include "redo_update.hpp"
#include "support/nl_registry.hpp"

namespace {

// Six tape steps of a small K = 2 run; at step 3 one gradient entry of W_O is moved by `factor`
// and the clip and AdamW update redone from it (what another summation order, or a forger, gives).
std::vector<std::string> device_run(const std::string& device, float factor) {
  nl::MagConfig cfg;
  cfg.vocab = 256, cfg.d = 8, cfg.heads = 2, cfg.seq_len = 8, cfg.window = 8, cfg.rule = nl::RuleKind::delta, cfg.seed = 7;
  cfg.rule_cfg.d = 8;
  cfg.periods = {1, 4};
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 3, o.total_steps = 40, o.clip = 1.0;
  std::string data;
  for (int i = 0; i < 83; ++i) data += static_cast<char>('a' + (i * 7) % 26);
  nl::Trainer t(cfg, nl::MagParams<float>::init(cfg), o);
  nl_audit::RecorderOptions ro{false, 1, "test", common::sha256_hex(data), data.size(), "tape"};
  ro.device = device;
  nl_audit::ReceiptRecorder rec(ro, {});
  std::vector<std::size_t> ids(8), tg(8);
  nl::StepTrace trace;
  std::vector<std::string> lines;
  for (std::size_t n = 0; n < 6; ++n) {
    const nl::TrainerState before = t.state();
    for (std::size_t i = 0; i < 8; ++i) ids[i] = static_cast<unsigned char>(data[n * 8 + i]), tg[i] = static_cast<unsigned char>(data[n * 8 + i + 1]);
    auto r = t.build_step(testsupport::nl_registry(), ids, tg, nl::GradientPath::tape, &trace);
    REQUIRE(r.ok());
    nl::TrainerState after = t.state();
    if (n == 3) {
      float* largest = &trace.gradients.w_o[0];
      for (float& x : trace.gradients.w_o) largest = std::abs(x) > std::abs(*largest) ? &x : largest;
      *largest *= factor;
      nl_audit_test::redo_update(before, trace, r->pulse, after);
      t = nl::Trainer::from_state(after).value();
    }
    lines.push_back(rec.record(before, {n, n * 8, false, ids, tg}, *r, trace, after));
  }
  return lines;
}

struct Verdict {
  std::uint64_t failures = 0, not_bitwise = 0;
  unsigned first_rule = 0;
  std::string first_tolerance, device;
};

Verdict verdict(const std::vector<std::string>& lines, bool fp64 = true) {
  nl_audit::VerifyOptions o;
  o.fp64 = fp64;
  nl_audit::StreamVerifier v(o);
  for (std::size_t i = 0; i < lines.size(); ++i) REQUIRE(v.add(lines[i], "r", static_cast<std::int64_t>(i + 1)).ok());
  Verdict out{v.failure_count(), v.not_bitwise(), 0, "", v.kernel_device()};
  if (!v.failures().empty()) out.first_rule = v.failures().front().rule, out.first_tolerance = v.failures().front().tolerance;
  return out;
}

}  // namespace

TEST_CASE("nl_audit: kernels.device receipts are held to the fp64 bound; roundoff passes, a 1% forgery fails") {
  const float ulp = std::nextafter(1.0f, 2.0f);  // one ulp of the entry: another summation order's size
  const Verdict own = verdict(device_run("", ulp));
  CHECK(own.failures > 0);  // nl's own code: the bits are (a)'s or the step fails
  CHECK(own.first_tolerance == "bitwise");
  const Verdict kernels = verdict(device_run("cpu-launcher", ulp));
  CHECK(kernels.failures == 0);
  CHECK(kernels.not_bitwise > 0);
  CHECK(kernels.device == "cpu-launcher");
  const Verdict forged = verdict(device_run("cuda:0", 1.01f));
  REQUIRE(forged.failures > 0);
  CHECK(forged.first_rule == 5);
  CHECK(forged.first_tolerance != "bitwise");
  // With (b) off nothing else could judge such a step: (a)'s bits are required again.
  CHECK(verdict(device_run("cpu-launcher", ulp), false).failures > 0);
  CHECK(verdict(device_run("cpu-launcher", 1.0f)).not_bitwise == 0);  // unforged: this machine's own bits
}

TEST_CASE("nl_audit: kernels.device is absent for nl's own code and spelled cpu-launcher or cuda:I") {
  const std::string line = device_run("cuda:12", 1.0f)[0];
  auto r = nl_audit::read_receipt(line, "r", 1);
  REQUIRE(r.ok());
  CHECK(r->device == "cuda:12");
  CHECK(nl_audit::write_receipt(*r) == line);
  CHECK(device_run("", 1.0f)[0].find("\"device\"") == std::string::npos);
  for (const char* bad : {"cpu", "gpu", "cuda", "cuda:", "cuda:01", "cuda:-1", "cuda:1x"}) {
    std::string l = line;
    l.replace(l.find("\"cuda:12\""), 9, std::string("\"") + bad + "\"");
    auto e = nl_audit::read_receipt(l, "r", 1);
    REQUIRE_MESSAGE(!e.ok(), bad);
    CHECK_MESSAGE(e.error().to_string().find("/kernels/device") != std::string::npos, e.error().to_string());
  }
}
