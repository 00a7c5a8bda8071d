// The optimizer on a device (gpu/adamw_kernel.hpp behind nl's OptimizerKernel seam): clip and
// AdamW through the launchers equal the host's clip_global_norm and update_range. The update is
// bit for bit the host's given the same clip factor; the norm is the host's bit for bit up to
// kNormPartials values and within its derived bound beyond (bodies/adamw.hpp): the factor then
// may differ by one float ulp, so each step is checked against the host's update with the
// device's factor, and that factor against the host's. The moments stay on the device across
// steps and come down only when the state is read.
#include <cmath>
#include <random>

#include "gpu/adamw_kernel.hpp"
#include "gpu_check.hpp"
#include "nl/adamw.hpp"
#include "nl/mag_check.hpp"

namespace {

constexpr double kU64 = 0x1p-53;

double gamma64(double n) { return n * kU64 / (1 - n * kU64); }

// A gradient of the shape of cfg's parameters, uniform in [-a, a].
nl::MagParams<float> random_gradient(const nl::MagConfig& cfg, float a, std::mt19937& rng) {
  std::vector<float> flat = nl::MagParams<float>::zeros(cfg).to_flat();
  std::uniform_real_distribution<float> u(-a, a);
  for (float& x : flat) x = u(rng);
  return nl::MagParams<float>::from_flat(cfg, flat);
}

double host_sum_of_squares(const std::vector<float>& g) {
  double sq = 0;
  for (float x : g) sq += static_cast<double>(x) * x;
  return sq;
}

// Forwards to the backend's kernel, counting adoptions and the moments' trips down.
struct Counts {
  int adopted = 0, downloads = 0, updates = 0;
};
class CountingResident final : public nl::ResidentAdamW {
 public:
  CountingResident(std::unique_ptr<nl::ResidentAdamW> r, Counts& c) : r_(std::move(r)), c_(c) {}
  void load_gradient(std::span<const float> g) override { r_->load_gradient(g); }
  [[nodiscard]] double sum_of_squares() override { return r_->sum_of_squares(); }
  void update(std::span<float> theta, std::span<const nl::AdamWRange> ranges, std::optional<float> scale) override {
    ++c_.updates;
    r_->update(theta, ranges, scale);
  }
  void download(std::span<float> m, std::span<float> v) const override {
    ++c_.downloads;
    r_->download(m, v);
  }

 private:
  std::unique_ptr<nl::ResidentAdamW> r_;
  Counts& c_;
};
class CountingKernel final : public nl::OptimizerKernel {
 public:
  CountingKernel(gpu::Backend& b, Counts& c) : k_(gpu::make_optimizer_kernel(b)), c_(c) {}
  [[nodiscard]] std::string_view device() const override { return k_->device(); }
  [[nodiscard]] std::unique_ptr<nl::ResidentAdamW> adopt(std::span<const float> m, std::span<const float> v) const override {
    ++c_.adopted;
    return std::make_unique<CountingResident>(k_->adopt(m, v), c_);
  }

 private:
  std::unique_ptr<nl::OptimizerKernel> k_;
  Counts& c_;
};

// One step's inputs: the gradient, the pulse and the learning rate.
struct StepInput {
  nl::MagParams<float> g;
  nl::Pulse pulse;
  double lr;
};

// `steps` inputs for a K = 2 model with level 1 active every other step, gradients alternately
// small (unclipped at clip 1) and large (clipped).
std::vector<StepInput> script(const nl::MagConfig& cfg, int steps) {
  std::mt19937 rng(7);
  nl::Conductor conductor(cfg.periods);
  std::vector<StepInput> out;
  for (int s = 0; s < steps; ++s, conductor.advance()) {
    out.push_back({random_gradient(cfg, s % 2 == 0 ? 1e-4f : 0.5f, rng), conductor.pulse(), 1e-2 * (1 + s)});
  }
  return out;
}

nl::AdamWConfig adamw_config() {
  nl::AdamWConfig o;
  o.lr = 1e-2, o.weight_decay = 0.1, o.clip = 1.0;
  return o;
}

// The host's run of `in` (no kernel installed), each step clipped by the factor of `norm_of`'s
// norm (the host's own, or the device's order computed apart): the parameters after each step.
template <typename Norm>
std::vector<std::vector<float>> host_run(const nl::MagConfig& cfg, const std::vector<StepInput>& in, Norm norm_of,
                                         nl::AdamWState* final_state) {
  REQUIRE(nl::installed_optimizer_kernel() == nullptr);
  const nl::AdamWConfig o = adamw_config();
  nl::FrequencyAwareAdamW host(cfg, o);
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  std::vector<std::vector<float>> out;
  for (const StepInput& x : in) {
    std::vector<float> flat = x.g.to_flat();
    const double norm = norm_of(flat);
    if (norm > o.clip) {
      const float f = nl::clip_scale<float>(o.clip, norm);
      for (float& v : flat) v *= f;  // clip_global_norm's x *= s
    }
    host.step(p, nl::MagParams<float>::from_flat(cfg, flat), x.pulse, x.lr);
    REQUIRE(host.moments_device().empty());
    out.push_back(p.to_flat());
  }
  *final_state = host.state();
  return out;
}

// The script through the device, each step against the host's update with the device's clip
// factor (its norm in the device's order, computed apart by gpu::sum_of_squares); the device's
// norm against the host's (equal, or within the bound: the factor then within one float ulp);
// the moments and counts at the end. Returns how many steps clipped.
int check_steps(gpu::Backend& b, const nl::MagConfig& cfg, int steps, bool norm_bitwise) {
  const std::vector<StepInput> in = script(cfg, steps);
  nl::AdamWState want;
  const std::vector<std::vector<float>> host = host_run(cfg, in, [&](const std::vector<float>& g) { return std::sqrt(gpu::sum_of_squares(b, g)); }, &want);
  const nl::AdamWConfig o = adamw_config();
  nl::FrequencyAwareAdamW device(cfg, o);
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  const std::size_t n = p.to_flat().size();
  int clipped = 0;
  nl::install_optimizer_kernel(gpu::make_optimizer_kernel(b));
  for (std::size_t s = 0; s < in.size(); ++s) {
    INFO("step " << s << " on " << std::string(b.name()) << ", " << n << " values");
    nl::MagParams<float> g = in[s].g;
    const double norm = device.clip_and_step(p, g, in[s].pulse, in[s].lr);
    CHECK(device.moments_device() == b.name());
    CHECK(g.to_flat() == in[s].g.to_flat());  // the device scales its own copy
    nl::MagParams<float> g_host = in[s].g;
    const double host_norm = nl::clip_global_norm(g_host, o.clip);
    if (norm_bitwise) {
      CHECK(norm == host_norm);
    } else {
      CHECK(std::fabs(norm - host_norm) <= gamma64(static_cast<double>(n) + 3) * host_norm);
    }
    CHECK((norm > o.clip) == (s % 2 == 1));
    if (norm > o.clip) {
      ++clipped;
      const float f = nl::clip_scale<float>(o.clip, norm), f_host = nl::clip_scale<float>(o.clip, host_norm);
      CHECK((f == f_host || std::nextafter(f, 0.f) == f_host || std::nextafter(f, 1.f) == f_host));
    }
    REQUIRE(p.to_flat() == host[s]);
  }
  nl::uninstall_optimizer_kernel();
  const nl::AdamWState d = device.state();
  CHECK(d.m.to_flat() == want.m.to_flat());
  CHECK(d.v.to_flat() == want.v.to_flat());
  CHECK(d.tau == want.tau);
  CHECK(d.tau_level == want.tau_level);
  CHECK(d.tau_level[1] * 2 == d.tau);  // level 1 was frozen every other step
  return clipped;
}

nl::MagConfig small_config() {
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  cfg.periods = {1, 2};
  return cfg;
}

nl::MagConfig wide_config() {  // 10,950 values: past kNormPartials
  nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::titans, 2);
  cfg.vocab = 256, cfg.d = 16, cfg.rule_cfg.d = 16;
  cfg.periods = {1, 2};
  return cfg;
}

void check_norm_order(gpu::Backend& b) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, gpu::kNormPartials, std::size_t{4097},
                        std::size_t{100'003}}) {
    INFO(n << " values on " << std::string(b.name()));
    std::vector<float> g(n);
    for (float& x : g) x = u(rng);
    const double got = gpu::sum_of_squares(b, g), want = host_sum_of_squares(g);
    if (n <= gpu::kNormPartials) {
      CHECK(got == want);
    } else {
      // The device's order, summed on the host: the same bits (the order is the body's, not the launcher's).
      std::vector<double> partials(gpu::kNormPartials, 0.0);
      for (std::size_t j = 0; j < n; ++j) partials[j % gpu::kNormPartials] += static_cast<double>(g[j]) * g[j];
      double in_order = 0;
      for (double p : partials) in_order += p;
      CHECK(got == in_order);
      CHECK(std::fabs(got - want) <= 2 * gamma64(static_cast<double>(n)) * want);
    }
  }
}

}  // namespace

TEST_CASE("adamw_kernel: the global norm's partials on the CPU launcher: the host's sum up to 4096 values, a fixed order beyond") {
  check_norm_order(gpu::cpu_backend());
}

TEST_CASE("adamw_kernel: clip and AdamW on the CPU launcher are the host's, bit for bit, clipped and unclipped, level 1 frozen on odd steps") {
  CHECK(check_steps(gpu::cpu_backend(), small_config(), 6, true) == 3);
  CHECK(check_steps(gpu::cpu_backend(), wide_config(), 6, false) == 3);
}

TEST_CASE("adamw_kernel: the moments stay on the device across steps and come down for state(), a copy, or the device's removal") {
  const nl::MagConfig cfg = small_config();
  const std::vector<StepInput> in = script(cfg, 6);
  nl::AdamWState want;
  const auto host = host_run(cfg, in, [](const std::vector<float>& g) { return std::sqrt(host_sum_of_squares(g)); }, &want);
  nl::FrequencyAwareAdamW device(cfg, adamw_config());
  nl::MagParams<float> p = nl::MagParams<float>::init(cfg);
  Counts counts;
  std::size_t s = 0;
  auto one_step = [&] {
    nl::MagParams<float> g = in[s].g;
    (void)device.clip_and_step(p, g, in[s].pulse, in[s].lr);
    REQUIRE(p.to_flat() == host[s++]);
  };
  nl::install_optimizer_kernel(std::make_unique<CountingKernel>(gpu::cpu_backend(), counts));
  for (int k = 0; k < 4; ++k) one_step();
  CHECK(device.moments_device() == "cpu");
  CHECK(counts.adopted == 1);
  CHECK(counts.updates == 4);
  CHECK(counts.downloads == 0);  // resident: nothing came back while stepping
  const nl::AdamWState mid = device.state();
  CHECK(counts.downloads == 1);
  const nl::FrequencyAwareAdamW copy = device;  // a copy holds the moments on the host
  CHECK(copy.moments_device().empty());
  CHECK(counts.downloads == 2);
  CHECK(copy.state().v.to_flat() == mid.v.to_flat());
  CHECK(counts.downloads == 2);
  nl::uninstall_optimizer_kernel();
  one_step();  // the device went: the moments came down and the host stepped
  CHECK(device.moments_device().empty());
  CHECK(counts.downloads == 3);
  CHECK(counts.updates == 4);
  nl::install_optimizer_kernel(std::make_unique<CountingKernel>(gpu::cpu_backend(), counts));
  one_step();  // back up
  CHECK(counts.adopted == 2);
  CHECK(counts.updates == 5);
  const nl::AdamWState taken = std::move(device).take_state();
  CHECK(counts.downloads == 4);
  nl::uninstall_optimizer_kernel();
  CHECK(taken.m.to_flat() == want.m.to_flat());
  CHECK(taken.v.to_flat() == want.v.to_flat());
  CHECK(taken.tau_level == want.tau_level);
}

TEST_CASE("adamw_kernel: the CUDA launcher's norm and update are the CPU launcher's, bit for bit") {
  gpu::Backend* cuda = gputest::cuda_or_skip("adamw_kernel");
  if (cuda == nullptr) return;
  check_norm_order(*cuda);
  CHECK(check_steps(*cuda, small_config(), 6, true) == 3);
  CHECK(check_steps(*cuda, wide_config(), 6, false) == 3);
}
