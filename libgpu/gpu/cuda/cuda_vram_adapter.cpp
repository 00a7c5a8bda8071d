#include "gpu/cuda/cuda_vram_adapter.hpp"

#include <cstring>

#include "gpu/cuda/cuda_check.hpp"
#include "gpu/cuda_vram.hpp"

namespace gpu {
namespace {

std::string describe(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

// Device-level failures mean the backend is gone; anything else is this move's I/O failing.
common::Error to_move_error(const char* what, cudaError_t e) {
  switch (e) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
    case cudaErrorInitializationError:
      return common::Error::unsupported(describe(what, e));
    default:
      return common::Error::io(describe(what, e));
  }
}

}  // namespace

CudaVramAdapter::CudaVramAdapter() {
  if (std::string why = cuda_device_unusable(); !why.empty()) throw GpuError("CudaVramAdapter: " + why);
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  for (std::size_t b = 0; b < 2; ++b) {
    cuda_check(cudaMallocHost(&staging_[b], kStagingBytes), "cudaMallocHost (staging)");
    cuda_check(cudaEventCreateWithFlags(&done_[b], cudaEventDisableTiming), "cudaEventCreate");
  }
}

CudaVramAdapter::~CudaVramAdapter() {
  for (auto& [id, block] : blocks_) (void)cudaFree(block.ptr);
  for (std::size_t b = 0; b < 2; ++b) {
    if (done_[b]) (void)cudaEventDestroy(done_[b]);
    if (staging_[b]) (void)cudaFreeHost(staging_[b]);
  }
  if (stream_) (void)cudaStreamDestroy(stream_);
}

cudaError_t CudaVramAdapter::copy_in(std::uint8_t* dev, std::span<const std::uint8_t> src) {
  std::size_t chunk = 0;
  for (std::size_t off = 0; off < src.size(); off += kStagingBytes, ++chunk) {
    const std::size_t b = chunk % 2, n = std::min(kStagingBytes, src.size() - off);
    // The buffer's previous copy must have left it before the host overwrites it.
    if (cudaError_t e = cudaEventSynchronize(done_[b]); e != cudaSuccess) return e;
    std::memcpy(staging_[b], src.data() + off, n);
    if (cudaError_t e = cudaMemcpyAsync(dev + off, staging_[b], n, cudaMemcpyHostToDevice, stream_); e != cudaSuccess) return e;
    if (cudaError_t e = cudaEventRecord(done_[b], stream_); e != cudaSuccess) return e;
  }
  return cudaStreamSynchronize(stream_);
}

cudaError_t CudaVramAdapter::copy_out(std::uint8_t* dst, const std::uint8_t* dev, std::size_t n_total) {
  // Chunk n+1 is in flight into one buffer while the host drains chunk n from the other.
  const std::size_t chunks = (n_total + kStagingBytes - 1) / kStagingBytes;
  auto issue = [&](std::size_t c) -> cudaError_t {
    const std::size_t off = c * kStagingBytes, n = std::min(kStagingBytes, n_total - off);
    if (cudaError_t e = cudaMemcpyAsync(staging_[c % 2], dev + off, n, cudaMemcpyDeviceToHost, stream_); e != cudaSuccess) return e;
    return cudaEventRecord(done_[c % 2], stream_);
  };
  if (chunks > 0) {
    if (cudaError_t e = issue(0); e != cudaSuccess) return e;
  }
  for (std::size_t c = 0; c < chunks; ++c) {
    if (c + 1 < chunks) {
      if (cudaError_t e = issue(c + 1); e != cudaSuccess) return e;
    }
    if (cudaError_t e = cudaEventSynchronize(done_[c % 2]); e != cudaSuccess) return e;
    const std::size_t off = c * kStagingBytes;
    std::memcpy(dst + off, staging_[c % 2], std::min(kStagingBytes, n_total - off));
  }
  return cudaSuccess;
}

common::Status CudaVramAdapter::upload(std::string_view id, std::span<const std::uint8_t> data) {
  std::lock_guard lock(mu_);
  Block fresh{nullptr, data.size()};
  // cudaMalloc(0) returns no block; a one-byte block keeps "uploaded, empty" distinct from "absent".
  if (cudaError_t e = cudaMalloc(&fresh.ptr, std::max<std::size_t>(data.size(), 1)); e != cudaSuccess) {
    (void)cudaGetLastError();
    return to_move_error("cudaMalloc", e);
  }
  if (cudaError_t e = copy_in(static_cast<std::uint8_t*>(fresh.ptr), data); e != cudaSuccess) {
    (void)cudaFree(fresh.ptr);
    return to_move_error("cudaMemcpyAsync (upload)", e);
  }
  // Replace only once the new bytes are in: a failed re-upload leaves the old block intact.
  if (auto it = blocks_.find(id); it != blocks_.end()) {
    (void)cudaFree(it->second.ptr);
    it->second = fresh;
  } else {
    blocks_.emplace(std::string(id), fresh);
  }
  return {};
}

common::Result<hybrid::Bytes> CudaVramAdapter::download(std::string_view id) {
  std::lock_guard lock(mu_);
  const auto it = blocks_.find(id);
  if (it == blocks_.end()) return common::Error::unsupported("VRAM holds no tensor '" + std::string(id) + "'");
  hybrid::Bytes out(it->second.bytes);
  if (cudaError_t e = copy_out(out.data(), static_cast<const std::uint8_t*>(it->second.ptr), out.size());
      e != cudaSuccess) {
    return to_move_error("cudaMemcpyAsync (download)", e);
  }
  return out;
}

common::Status CudaVramAdapter::free(std::string_view id) {
  std::lock_guard lock(mu_);
  const auto it = blocks_.find(id);
  if (it == blocks_.end()) return common::Error::unsupported("VRAM holds no tensor '" + std::string(id) + "'");
  const cudaError_t e = cudaFree(it->second.ptr);
  blocks_.erase(it);
  if (e != cudaSuccess) return to_move_error("cudaFree", e);
  return {};
}

std::vector<hybrid::GpuCaps> CudaVramAdapter::devices() const {
  std::vector<hybrid::GpuCaps> out;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) return out;
  int current = 0;
  (void)cudaGetDevice(&current);
  for (int dev = 0; dev < n; ++dev) {
    hybrid::GpuCaps g;
    g.id = "gpu" + std::to_string(dev);
    g.backend = hybrid::BackendKind::cuda;
    std::size_t free_b = 0, total_b = 0;
    if (cudaSetDevice(dev) == cudaSuccess && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
      g.vram_total_bytes = total_b;
      g.vram_free_bytes = free_b;
    }
    int mem_khz = 0, bus_bits = 0, sms = 0, core_khz = 0;
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess && mem_khz > 0) {
      // Double data rate: two transfers per clock over the bus width.
      g.bandwidth_gbps_est = static_cast<float>(2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9);
    }
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&core_khz, cudaDevAttrClockRate, dev) == cudaSuccess) {
      g.compute_score_est = static_cast<float>(sms * (core_khz / 1e6));  // SMs x GHz
    }
    out.push_back(std::move(g));
  }
  (void)cudaSetDevice(current);
  (void)cudaGetLastError();
  return out;
}

std::unique_ptr<hybrid::VramAdapter> make_cuda_vram_adapter(std::string* reason) {
  if (std::string why = cuda_device_unusable(); !why.empty()) {
    if (reason) *reason = why;
    return nullptr;
  }
  try {
    return std::make_unique<CudaVramAdapter>();
  } catch (const GpuError& e) {
    if (reason) *reason = e.what();
    return nullptr;
  }
}

}  // namespace gpu
