#pragma once
// Backend: where kernel bodies run and their buffers live. The host code of every kernel pair is
// written once against this interface; the CPU backend keeps buffers in host memory and runs the
// bodies in a loop over the index space, the CUDA backend keeps them in device memory and launches
// the same bodies as CUDA kernels. Nothing here includes a CUDA header.
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/kernels.hpp"

namespace gpu {

// A backend call that failed (allocation, copy, launch); the message names the call and the cause.
class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual const char* name() const = 0;  // "cpu", "cuda"
  [[nodiscard]] virtual float* alloc(std::size_t n) = 0;  // zero-filled; throws GpuError
  virtual void release(float* p) noexcept = 0;
  virtual void upload(float* dst, const float* src, std::size_t n) = 0;
  virtual void download(float* dst, const float* src, std::size_t n) = 0;
  // Binary64 buffers, for the bodies that sum in double (the global norm's partials): the same
  // contract as alloc, release and download.
  [[nodiscard]] virtual double* alloc_f64(std::size_t n) = 0;
  virtual void release_f64(double* p) noexcept = 0;
  virtual void download_f64(double* dst, const double* src, std::size_t n) = 0;
  // Runs Body::run(args, i) for i in [0, n); `args` points to the kernel's Args struct.
  virtual void launch(KernelId id, const void* args, std::size_t n) = 0;
  // C = alpha op(A) op(B) + beta C, row-major, on buffers of this backend (GemmArgs's layout).
  // CPU: OpenBLAS; CUDA: cuBLAS, or the GemmBody hand kernel where cuBLAS cannot be loaded.
  virtual void gemm(const GemmArgs& g) = 0;
  // Runs a phased body for `steps` steps (see GPU_PHASED_KERNELS).
  virtual void launch_phased(PhasedId id, const void* args, std::size_t steps) = 0;
  virtual void synchronize() = 0;
};

template <PhasedId Id>
void launch_phased(Backend& b, const typename PhasedArgs<Id>::type& args, std::size_t steps) {
  if (steps != 0) b.launch_phased(Id, &args, steps);
}

template <KernelId Id>
void launch(Backend& b, const typename KernelArgs<Id>::type& args, std::size_t n) {
  if (n != 0) b.launch(Id, &args, n);
}

// The process-wide CPU backend (stateless apart from the allocations it hands out).
[[nodiscard]] Backend& cpu_backend();

// The CUDA backend for device 0, or why there is none: built without CUDA, no driver, no device.
struct CudaProbe {
  Backend* backend = nullptr;
  std::string reason;  // one line; empty when backend is set
};
[[nodiscard]] const CudaProbe& cuda_backend();
// The same for device `index` (cuda_backend_on(0) is cuda_backend()); also says when the machine
// has fewer devices. Probed once per index; thread-safe.
[[nodiscard]] const CudaProbe& cuda_backend_on(std::size_t index);

// Whether this build compiled the CUDA launcher (nvcc was found at configure time).
[[nodiscard]] bool cuda_compiled();

// A buffer on a backend, freed on scope exit.
class Buffer {
 public:
  Buffer(Backend& b, std::size_t n) : b_(&b), p_(n ? b.alloc(n) : nullptr), n_(n) {}
  Buffer(Backend& b, std::span<const float> host) : Buffer(b, host.size()) {
    if (n_) b_->upload(p_, host.data(), n_);
  }
  ~Buffer() {
    if (p_) b_->release(p_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  [[nodiscard]] float* get() const { return p_; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] std::vector<float> to_host() const {
    std::vector<float> out(n_);
    if (n_) b_->download(out.data(), p_, n_);
    return out;
  }
  // Values [offset, offset + n) only.
  [[nodiscard]] std::vector<float> to_host(std::size_t offset, std::size_t n) const {
    if (offset > n_ || n > n_ - offset) {
      std::string what = "Buffer::to_host: ";
      what += std::to_string(n);
      what += " values from ";
      what += std::to_string(offset);
      what += " of ";
      what += std::to_string(n_);
      throw GpuError(what);
    }
    std::vector<float> out(n);
    if (n) b_->download(out.data(), p_ + offset, n);
    return out;
  }
  void upload_prefix(std::span<const float> host) {
    if (host.size() > n_) throw GpuError("Buffer::upload_prefix: " + std::to_string(host.size()) + " values into " + std::to_string(n_));
    if (!host.empty()) b_->upload(p_, host.data(), host.size());
  }

 private:
  Backend* b_;
  float* p_;
  std::size_t n_;
};

// A binary64 buffer on a backend, zero-filled, freed on scope exit.
class Buffer64 {
 public:
  Buffer64(Backend& b, std::size_t n) : b_(&b), p_(b.alloc_f64(n)) {}
  ~Buffer64() { b_->release_f64(p_); }
  Buffer64(const Buffer64&) = delete;
  Buffer64& operator=(const Buffer64&) = delete;
  [[nodiscard]] double* get() const { return p_; }

 private:
  Backend* b_;
  double* p_;
};

}  // namespace gpu
