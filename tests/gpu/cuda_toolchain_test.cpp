// The build test's run-time half: configured with the PyPI toolchain (SUITE_PYTHON_VENV) and
// SUITE_CUDA not OFF, libgpu must have compiled the CUDA launcher (this binary links it); and
// without a device the CUDA backend must say why instead of failing.
#include "gpu/backend.hpp"
#include "gpu/cuda_vram.hpp"
#include "gpu_check.hpp"

TEST_CASE("toolchain: the CUDA launcher is compiled wherever the configuration promises nvcc") {
#if SUITE_EXPECT_CUDA
  CHECK_MESSAGE(gpu::cuda_compiled(), "SUITE_PYTHON_VENV is set but libgpu was built without the CUDA launcher");
#else
  MESSAGE("no CUDA toolchain promised by this configuration; cuda_compiled() = " << gpu::cuda_compiled());
#endif
}

TEST_CASE("toolchain: without a usable device the CUDA backend reports why, in one line") {
  const gpu::CudaProbe& probe = gpu::cuda_backend();
  if (probe.backend != nullptr) {
    CHECK(probe.reason.empty());
    CHECK(std::string(probe.backend->name()) == "cuda");
    return;
  }
  CHECK_FALSE(probe.reason.empty());
  CHECK(probe.reason.find('\n') == std::string::npos);
  std::string why;
  CHECK(gpu::make_cuda_vram_adapter(&why) == nullptr);
  CHECK(why == probe.reason);
}
