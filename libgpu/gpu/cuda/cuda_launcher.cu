// The CUDA launcher: every body in GPU_KERNELS as a __global__ kernel over the index space, and
// the CUDA backend's memory calls. One backend per device, its default stream; one thread per index.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/backend.hpp"
#include "gpu/cuda/cublas_loader.hpp"
#include "gpu/cuda/cuda_check.hpp"

namespace gpu {
namespace {

template <typename Body>
__global__ void run_body(typename Body::Args args, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) Body::run(args, i);
}

// One block walks the steps; __syncthreads() is the barrier between phases. The recurrences
// are sequential in the steps and small across (d, d_h <= a few hundred), so one block is the
// right shape: no grid-wide synchronization, and every phase's rows fit a block's threads.
template <typename Body>
__global__ void run_phased(typename Body::Args args, std::size_t steps) {
  for (std::size_t step = 0; step < steps; ++step) {
    for (int phase = 0; phase < Body::kPhases; ++phase) {
      const std::size_t w = Body::width(args, phase);
      for (std::size_t i = threadIdx.x; i < w; i += blockDim.x) Body::run(args, step, phase, i);
      __syncthreads();
    }
  }
}

constexpr unsigned kBlock = 128;
constexpr unsigned kPhasedBlock = 256;

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) : device_(device) {}
  [[nodiscard]] const char* name() const override { return "cuda"; }
  [[nodiscard]] float* alloc(std::size_t n) override { return allocate<float>(n); }
  void release(float* p) noexcept override { free_on_device(p); }
  void upload(float* dst, const float* src, std::size_t n) override {
    on_device();
    cuda_check(cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  void download(float* dst, const float* src, std::size_t n) override { copy_down(dst, src, n); }
  [[nodiscard]] double* alloc_f64(std::size_t n) override { return allocate<double>(n); }
  void release_f64(double* p) noexcept override { free_on_device(p); }
  void download_f64(double* dst, const double* src, std::size_t n) override { copy_down(dst, src, n); }
  void launch(KernelId id, const void* args, std::size_t n) override {
    on_device();
    const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
    switch (id) {
#define GPU_CUDA_CASE(kid, Body)                                                           \
  case KernelId::kid:                                                                      \
    run_body<Body><<<blocks, kBlock>>>(*static_cast<const Body::Args*>(args), n);          \
    cuda_check(cudaGetLastError(), "launch " #kid);                                        \
    return;
      GPU_KERNELS(GPU_CUDA_CASE)
#undef GPU_CUDA_CASE
    }
    throw GpuError("cuda backend: unknown kernel id " + std::to_string(static_cast<int>(id)));
  }
  void launch_phased(PhasedId id, const void* args, std::size_t steps) override {
    on_device();
    switch (id) {
#define GPU_CUDA_PHASED_CASE(kid, Body)                                                    \
  case PhasedId::kid:                                                                      \
    run_phased<Body><<<1, kPhasedBlock>>>(*static_cast<const Body::Args*>(args), steps);   \
    cuda_check(cudaGetLastError(), "launch " #kid);                                        \
    return;
      GPU_PHASED_KERNELS(GPU_CUDA_PHASED_CASE)
#undef GPU_CUDA_PHASED_CASE
    }
    throw GpuError("cuda backend: unknown phased kernel id " + std::to_string(static_cast<int>(id)));
  }
  void gemm(const GemmArgs& g) override {
    on_device();
    if (g.m == 0 || g.n == 0) return;
    const Cublas& cb = cublas();
    if (cb.handle == nullptr) {  // the hand kernel
      run_body<GemmBody><<<static_cast<unsigned>((g.m * g.n + kBlock - 1) / kBlock), kBlock>>>(g, g.m * g.n);
      cuda_check(cudaGetLastError(), "launch gemm");
      return;
    }
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    const cublasStatus_t st =
        cb.sgemm(cb.handle, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                 &g.alpha, g.b, g.trans_b ? k : n, g.a, g.trans_a ? m : k, &g.beta, g.c, n);
    if (st != CUBLAS_STATUS_SUCCESS) throw GpuError("cublasSgemm failed with status " + std::to_string(static_cast<int>(st)));
  }
  void synchronize() override {
    on_device();
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

 private:
  // The current device is per host thread, and a batch's streams call from worker threads.
  void on_device() const { cuda_check(cudaSetDevice(device_), "cudaSetDevice"); }
  template <typename T>
  T* allocate(std::size_t n) {
    on_device();
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc");
    cuda_check(cudaMemset(p, 0, n * sizeof(T)), "cudaMemset");
    return static_cast<T*>(p);
  }
  void free_on_device(void* p) const noexcept {
    (void)cudaSetDevice(device_);
    (void)cudaFree(p);
  }
  template <typename T>
  void copy_down(T* dst, const T* src, std::size_t n) const {
    on_device();
    cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
  }
  int device_;
};

}  // namespace

bool cuda_compiled() { return true; }

const CudaProbe& cuda_backend() { return cuda_backend_on(0); }

const CudaProbe& cuda_backend_on(std::size_t index) {
  // Probes and backends live until exit (callers keep the references).
  static std::mutex mu;
  static std::map<std::size_t, std::pair<CudaProbe, std::unique_ptr<CudaBackend>>> probes;
  std::lock_guard lock(mu);
  auto it = probes.find(index);
  if (it != probes.end()) return it->second.first;
  auto& [probe, backend] = probes[index];
  if (index > static_cast<std::size_t>(INT32_MAX)) {
    probe.reason = "CUDA device " + std::to_string(index) + " does not exist";
  } else if (std::string why = cuda_device_unusable(static_cast<int>(index)); !why.empty()) {
    probe.reason = why;
  } else {
    backend = std::make_unique<CudaBackend>(static_cast<int>(index));
    probe.backend = backend.get();
  }
  return probe;
}

}  // namespace gpu
