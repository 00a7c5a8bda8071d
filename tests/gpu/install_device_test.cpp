// --device's library side: parse_device's spellings and refusals, and install_device putting
// every rule's kernel pair and the SWA kernel behind nl's seams (cpu-launcher, cuda), removing
// them (cpu), or refusing an unusable CUDA device with the backend's reason and nothing changed.
// The SWA seam through install_device: the tape's block on the CPU launcher matches nl's own.
#include <random>

#include "gpu/install_device.hpp"
#include "gpu_check.hpp"
#include "nl/head_kernel.hpp"
#include "nl/kernel_pair.hpp"
#include "nl/rule_check.hpp"
#include "nl/swa_kernel.hpp"
#include "tape/tape.hpp"

namespace {

// Which device every seam has installed: "" for none (nl's own code), else the pairs' device,
// which must agree across the nine rules, SWA and the head ("mixed" otherwise).
std::string installed_devices() {
  std::string seen;
  bool first = true;
  auto note = [&](std::string d) {
    if (first) seen = d, first = false;
    else if (seen != d) seen = "mixed";
  };
  for (nl::RuleKind kind : nl::kAllRuleKinds) {
    const auto p = nl::installed_kernel_pair(kind);
    note(p ? std::string(p->pair->device()) : std::string());
  }
  const auto s = nl::installed_swa_kernel();
  note(s ? std::string(s->kernel->device()) : std::string());
  const auto h = nl::installed_head_kernel();
  note(h ? std::string(h->kernel->device()) : std::string());
  return seen;
}

struct SwaGradients {
  std::vector<float> a, gq, gk, gv;
};

SwaGradients tape_swa(const nl::SwaShape& sh, unsigned seed) {
  std::mt19937 rng(seed);
  const std::size_t n = sh.s * sh.d;
  const std::vector<float> q = nltest::cast<float>(nltest::uniform(n, 1.5, rng)), k = nltest::cast<float>(nltest::uniform(n, 1.5, rng)),
                           v = nltest::cast<float>(nltest::uniform(n, 1.0, rng)), w = nltest::cast<float>(nltest::uniform(n, 1.0, rng));
  SwaGradients g;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tq = t.register_input(q, {sh.s, sh.d}), tk = t.register_input(k, {sh.s, sh.d}),
                       tv = t.register_input(v, {sh.s, sh.d});
    const tape::Tensor a = nl::record_swa(nltest::registry(), sh, tq, tk, tv);
    g.a = a.to_vector();
    t.backward(a.id(), w);
    g.gq = t.get_grad(tq.id()), g.gk = t.get_grad(tk.id()), g.gv = t.get_grad(tv.id());
  });
  return g;
}

struct HeadGradients {
  float loss;
  std::vector<float> gz, gw, gu;
};

HeadGradients tape_head(const nl::HeadShape& sh, unsigned seed) {
  std::mt19937 rng(seed);
  const std::vector<float> z = nltest::cast<float>(nltest::uniform(sh.s * sh.d, 1.0, rng)),
                           w = nltest::cast<float>(nltest::uniform(sh.d * sh.d, 0.5, rng)),
                           u = nltest::cast<float>(nltest::uniform(sh.d * sh.vocab, 0.5, rng));
  std::vector<std::size_t> targets(sh.s);
  for (std::size_t i = 0; i < sh.s; ++i) targets[i] = i == 2 ? sh.vocab : (i * 11) % sh.vocab;
  HeadGradients g;
  tape::with_tape([&](tape::Tape& t) {
    const tape::Tensor tz = t.register_param(z, {sh.s, sh.d}), tw = t.register_param(w, {sh.d, sh.d}),
                       tu = t.register_param(u, {sh.d, sh.vocab});
    const tape::Tensor loss = nl::record_head_loss(nltest::registry(), tz, tw, tu, targets);
    g.loss = loss.item();
    t.backward(loss.id());
    g.gz = t.get_grad(tz.id()), g.gw = t.get_grad(tw.id()), g.gu = t.get_grad(tu.id());
  });
  return g;
}

}  // namespace

TEST_CASE("install_device: parse_device spells cpu, cpu-launcher, cuda and cuda:I; the rest is refused naming the option") {
  using K = gpu::DeviceChoice::Kind;
  CHECK(gpu::parse_device("cpu", "--device").value() == gpu::DeviceChoice{K::cpu, 0});
  CHECK(gpu::parse_device("cpu-launcher", "--device").value() == gpu::DeviceChoice{K::cpu_launcher, 0});
  CHECK(gpu::parse_device("cuda", "--device").value() == gpu::DeviceChoice{K::cuda, 0});
  CHECK(gpu::parse_device("cuda:3", "--device").value() == gpu::DeviceChoice{K::cuda, 3});
  CHECK(gpu::device_name(gpu::parse_device("cuda", "--device").value()) == "cuda:0");
  CHECK(gpu::device_name(gpu::parse_device("cpu-launcher", "--device").value()) == "cpu-launcher");
  for (const char* bad : {"gpu", "CPU", "", "cuda0", "cpu_launcher"}) {
    auto d = gpu::parse_device(bad, "--device");
    REQUIRE(!d.ok());
    CHECK(d.error().code() == common::ErrorCode::invalid_argument);
    CHECK(d.error().message().rfind("--device: '" + std::string(bad) + "' is not a device", 0) == 0);
  }
  for (const char* bad : {"cuda:", "cuda:x", "cuda:-1", "cuda:+1", "cuda:1x", "cuda:99999999999999999999999"}) {
    auto d = gpu::parse_device(bad, "--device");
    REQUIRE_MESSAGE(!d.ok(), bad);
    CHECK(d.error().code() == common::ErrorCode::malformed);
    CHECK(d.error().message().find("plain decimal digits") != std::string::npos);
  }
}

TEST_CASE("install_device: cpu-launcher installs all nine pairs, SWA and the head; cpu removes them; an unusable cuda changes nothing") {
  REQUIRE(installed_devices().empty());
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu_launcher, 0}, "--device").ok());
  CHECK(installed_devices() == "cpu");  // the CPU launcher's backend
  const gpu::CudaProbe& cuda = gpu::cuda_backend_on(0);
  const common::Status s = gpu::install_device({gpu::DeviceChoice::Kind::cuda, 0}, "--device");
  if (cuda.backend == nullptr) {
    REQUIRE(!s.ok());
    CHECK(s.error().code() == common::ErrorCode::unsupported);
    CHECK(s.error().message() == "--device: cuda:0 is not usable here: " + cuda.reason);
    CHECK(installed_devices() == "cpu");
  } else {
    CHECK(s.ok());
    CHECK(installed_devices() == "cuda");
  }
  // A device index beyond the machine's: refused with the reason, whatever the machine.
  const common::Status far = gpu::install_device({gpu::DeviceChoice::Kind::cuda, 4096}, "--device");
  REQUIRE(!far.ok());
  CHECK(far.error().message().rfind("--device: cuda:4096 is not usable here: ", 0) == 0);
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu, 0}, "--device").ok());
  CHECK(installed_devices().empty());
}

TEST_CASE("install_device: the tape's SWA block through the CPU launcher's kernel matches nl's own (rtol 1e-5)") {
  const nl::SwaShape sh{9, 32, 2, 5};  // head dim 16: nl sums its dot products 8 lanes wide
  const SwaGradients own = tape_swa(sh, 4);
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu_launcher, 0}, "--device").ok());
  const SwaGradients kernels = tape_swa(sh, 4);
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu, 0}, "--device").ok());
  // The launcher's bodies ran: their sums round in another order somewhere.
  CHECK((kernels.a != own.a || kernels.gq != own.gq || kernels.gk != own.gk || kernels.gv != own.gv));
  gputest::require_close(kernels.a, own.a, "swa output");
  gputest::require_close(kernels.gq, own.gq, "swa grad q");
  gputest::require_close(kernels.gk, own.gk, "swa grad k");
  gputest::require_close(kernels.gv, own.gv, "swa grad v");
}

TEST_CASE("install_device: the tape's head block through the CPU launcher's kernel is nl's own, bit for bit") {
  const nl::HeadShape sh{9, 32, 256};
  const HeadGradients own = tape_head(sh, 6);
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu_launcher, 0}, "--device").ok());
  REQUIRE(nl::installed_head_kernel().has_value());
  const HeadGradients kernels = tape_head(sh, 6);
  REQUIRE(gpu::install_device({gpu::DeviceChoice::Kind::cpu, 0}, "--device").ok());
  CHECK(kernels.loss == own.loss);
  CHECK(kernels.gz == own.gz);
  CHECK(kernels.gw == own.gw);
  CHECK(kernels.gu == own.gu);
}
