// The optimizer on a backend: nl::OptimizerKernel over the AdamW and global-norm bodies.
#include "gpu/adamw_kernel.hpp"

#include <string>

namespace gpu {
namespace {

// The norm's partials and their sum, on buffers the caller keeps; g (n values) on the device.
double device_sum_of_squares(Backend& b, const float* g, std::size_t n, const Buffer64& partials, const Buffer64& sum) {
  launch<KernelId::square_partials>(b, SquarePartialsArgs{g, n, partials.get()}, kNormPartials);
  launch<KernelId::reduce_rows_f64>(b, BasicReduceRowsArgs<double>{partials.get(), kNormPartials, 1, sum.get()}, 1);
  double out = 0;
  b.download_f64(&out, sum.get(), 1);
  return out;
}

class BackendResidentAdamW final : public nl::ResidentAdamW {
 public:
  BackendResidentAdamW(Backend& b, std::span<const float> m, std::span<const float> v)
      : b_(b), n_(m.size()), m_(b, m), v_(b, v), g_(b, n_), theta_(b, n_), partials_(b, kNormPartials), sum_(b, 1) {
    if (v.size() != n_) throw GpuError("optimizer kernel: moments of " + std::to_string(n_) + " and " + std::to_string(v.size()) + " values");
  }
  void load_gradient(std::span<const float> g) override {
    check_size(g.size(), "gradient");
    if (n_ != 0) b_.upload(g_.get(), g.data(), n_);
  }
  [[nodiscard]] double sum_of_squares() override { return device_sum_of_squares(b_, g_.get(), n_, partials_, sum_); }
  void update(std::span<float> theta, std::span<const nl::AdamWRange> ranges, std::optional<float> scale) override {
    check_size(theta.size(), "parameter vector");
    if (n_ == 0) return;
    b_.upload(theta_.get(), theta.data(), n_);
    for (const nl::AdamWRange& r : ranges) {
      if (r.begin > r.end || r.end > n_) throw GpuError("optimizer kernel: range [" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ") of " + std::to_string(n_) + " values");
      const nl::AdamWCoefficients& k = r.k;
      const AdamWArgs args{r.begin, g_.get(), theta_.get(), m_.get(), v_.get(), scale.has_value(), scale.value_or(1.f),
                           k.b1, k.b2, k.a1, k.a2, k.c1, k.c2, k.eps, k.wd, k.lr};
      launch<KernelId::adamw>(b_, args, r.end - r.begin);
    }
    b_.download(theta.data(), theta_.get(), n_);
  }
  void download(std::span<float> m, std::span<float> v) const override {
    check_size(m.size(), "m"), check_size(v.size(), "v");
    if (n_ == 0) return;
    b_.download(m.data(), m_.get(), n_);
    b_.download(v.data(), v_.get(), n_);
  }

 private:
  void check_size(std::size_t n, const char* what) const {
    if (n != n_) throw GpuError(std::string("optimizer kernel: ") + what + " of " + std::to_string(n) + " values for moments of " + std::to_string(n_));
  }
  Backend& b_;
  std::size_t n_;
  Buffer m_, v_, g_, theta_;
  Buffer64 partials_, sum_;
};

class BackendOptimizerKernel final : public nl::OptimizerKernel {
 public:
  explicit BackendOptimizerKernel(Backend& b) : b_(b) {}
  [[nodiscard]] std::string_view device() const override { return b_.name(); }
  [[nodiscard]] std::unique_ptr<nl::ResidentAdamW> adopt(std::span<const float> m, std::span<const float> v) const override {
    return std::make_unique<BackendResidentAdamW>(b_, m, v);
  }

 private:
  Backend& b_;
};

}  // namespace

double sum_of_squares(Backend& b, std::span<const float> g) {
  const Buffer bg(b, g);
  const Buffer64 partials(b, kNormPartials), sum(b, 1);
  return device_sum_of_squares(b, bg.get(), g.size(), partials, sum);
}

std::unique_ptr<nl::OptimizerKernel> make_optimizer_kernel(Backend& backend) { return std::make_unique<BackendOptimizerKernel>(backend); }

}  // namespace gpu
