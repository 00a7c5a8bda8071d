// The CUDA launcher: every body in GPU_KERNELS as a __global__ kernel over the index space, and
// the CUDA backend's memory calls. One backend per device; each host thread works on its own
// stream (cudaStreamPerThread), so a batch's worker threads run their sequences side by side; one
// thread per index.
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

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
// Everything a host thread asks of the device goes to that thread's stream; synchronize() waits
// for it alone, not for the other threads' work (cudaDeviceSynchronize did, and so did cudaFree).
const cudaStream_t kStream = cudaStreamPerThread;

// Blocks a host thread released, kept for its next allocation of the same size. Every kernel pair
// call allocates some 30 buffers; cudaMalloc and cudaFree cost tens of microseconds each, and
// cudaFree waits for the whole device, which serialized a batch's worker threads. A block is
// reused only by the thread that allocated and released it: its stream orders the reuse (and the
// zero fill) after the work that used the block. Blocks released on another thread, and those
// past kCacheBytes per thread, are freed. When the device is out of memory, the thread's cache is
// emptied and the allocation tried once more.
class BlockCache {
 public:
  static constexpr std::size_t kCacheBytes = std::size_t{2} << 30;
  ~BlockCache() { clear(); }
  void* take(int device, std::size_t bytes) {
    auto it = free_.find(Key{device, bytes});
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_ -= bytes;
    live_[p] = Key{device, bytes};
    return p;
  }
  void track(void* p, int device, std::size_t bytes) { live_[p] = Key{device, bytes}; }
  // False when p was not allocated on this thread: the caller frees it.
  bool give_back(void* p) {
    auto it = live_.find(p);
    if (it == live_.end()) return false;
    const Key k = it->second;
    live_.erase(it);
    if (cached_ + k.bytes > kCacheBytes) {
      (void)cudaSetDevice(k.device);
      (void)cudaFree(p);
      return true;
    }
    free_[k].push_back(p);
    cached_ += k.bytes;
    return true;
  }
  void clear() noexcept {
    for (auto& [k, blocks] : free_) {
      (void)cudaSetDevice(k.device);
      for (void* p : blocks) (void)cudaFree(p);  // at process exit the runtime may be gone already
    }
    free_.clear();
    cached_ = 0;
  }

 private:
  struct Key {
    int device;
    std::size_t bytes;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept { return k.bytes * 31 + static_cast<std::size_t>(k.device); }
  };
  std::unordered_map<Key, std::vector<void*>, KeyHash> free_;
  std::unordered_map<void*, Key> live_;
  std::size_t cached_ = 0;
};

BlockCache& block_cache() {
  thread_local BlockCache cache;
  return cache;
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) : device_(device) {}
  [[nodiscard]] const char* name() const override { return "cuda"; }
  [[nodiscard]] float* alloc(std::size_t n) override { return allocate<float>(n); }
  void release(float* p) noexcept override { free_on_device(p); }
  void upload(float* dst, const float* src, std::size_t n) override {
    on_device();
    // Waited for, as cudaMemcpy was: the values are on the device for any thread's next use, and
    // the caller may free `src`.
    cuda_check(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyHostToDevice, kStream), "cudaMemcpy to device");
    cuda_check(cudaStreamSynchronize(kStream), "cudaStreamSynchronize");
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
    run_body<Body><<<blocks, kBlock, 0, kStream>>>(*static_cast<const Body::Args*>(args), n); \
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
    run_phased<Body><<<1, kPhasedBlock, 0, kStream>>>(*static_cast<const Body::Args*>(args), steps); \
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
      run_body<GemmBody><<<static_cast<unsigned>((g.m * g.n + kBlock - 1) / kBlock), kBlock, 0, kStream>>>(g, g.m * g.n);
      cuda_check(cudaGetLastError(), "launch gemm");
      return;
    }
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
    const auto m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    const cublasStatus_t st =
        cb.sgemm(cublas_thread_handle(device_), g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                 &g.alpha, g.b, g.trans_b ? k : n, g.a, g.trans_a ? m : k, &g.beta, g.c, n);
    if (st != CUBLAS_STATUS_SUCCESS) throw GpuError("cublasSgemm failed with status " + std::to_string(static_cast<int>(st)));
  }
  void synchronize() override {
    on_device();
    cuda_check(cudaStreamSynchronize(kStream), "cudaStreamSynchronize");
  }

 private:
  // The current device is per host thread, and a batch's streams call from worker threads.
  void on_device() const { cuda_check(cudaSetDevice(device_), "cudaSetDevice"); }
  template <typename T>
  T* allocate(std::size_t n) {
    on_device();
    const std::size_t bytes = n * sizeof(T);
    BlockCache& cache = block_cache();
    void* p = cache.take(device_, bytes);
    if (p == nullptr) {
      cudaError_t e = cudaMalloc(&p, bytes);
      if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();  // clear it, give this thread's cached blocks back, try once more
        cache.clear();
        e = cudaMalloc(&p, bytes);
      }
      cuda_check(e, "cudaMalloc");
      cache.track(p, device_, bytes);
    }
    cuda_check(cudaMemsetAsync(p, 0, bytes, kStream), "cudaMemset");
    return static_cast<T*>(p);
  }
  void free_on_device(void* p) const noexcept {
    if (p == nullptr || block_cache().give_back(p)) return;
    (void)cudaSetDevice(device_);
    (void)cudaFree(p);
  }
  template <typename T>
  void copy_down(T* dst, const T* src, std::size_t n) const {
    on_device();
    cuda_check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, kStream), "cudaMemcpy to host");
    cuda_check(cudaStreamSynchronize(kStream), "cudaStreamSynchronize");
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
