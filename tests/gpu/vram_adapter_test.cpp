// The same VramAdapter contract over the fake adapter (always) and the CUDA adapter (where a GPU
// is present): round trips of several sizes (across the staging buffers' chunk size), empty
// tensors, re-upload, free, unknown ids, and the devices the profiler sees.
#include <random>

#include "gpu/cuda_vram.hpp"
#include "gpu_check.hpp"
#include "hybrid/memory/fake_vram_adapter.hpp"
#include "hybrid/profiler/probe_gpu.hpp"

namespace {

hybrid::Bytes random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  hybrid::Bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// "t" + std::to_string(n) draws a false -Wrestrict from GCC 12 at -O2 (Release): append instead.
std::string tensor_id(std::size_t n) {
  std::string id = "t";
  id += std::to_string(n);
  return id;
}

void check_contract(hybrid::VramAdapter& a) {
  REQUIRE(a.is_available());
  const std::size_t sizes[] = {0, 1, 4097, (std::size_t{4} << 20) + 3, (std::size_t{9} << 20) + 1};
  unsigned seed = 1;
  for (std::size_t n : sizes) {
    const std::string id = tensor_id(n);
    const hybrid::Bytes data = random_bytes(n, seed++);
    REQUIRE(a.upload(id, data).ok());
    auto back = a.download(id);
    REQUIRE(back.ok());
    CHECK(*back == data);
  }
  const hybrid::Bytes replaced = random_bytes(100, 99);
  REQUIRE(a.upload("t1", replaced).ok());
  CHECK(*a.download("t1") == replaced);
  for (std::size_t n : sizes) CHECK(a.free(tensor_id(n)).ok());
  auto gone = a.download("t1");
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().code() == common::ErrorCode::unsupported);
  CHECK(a.free("never").error().code() == common::ErrorCode::unsupported);
}

}  // namespace

TEST_CASE("vram: the fake adapter meets the VramAdapter contract") {
  hybrid::FakeVramAdapter fake;
  check_contract(fake);
}

TEST_CASE("vram: the CUDA adapter meets the VramAdapter contract and reports its devices") {
  std::string why;
  auto cuda = gpu::make_cuda_vram_adapter(&why);
  if (!cuda) {
    std::printf("SUITE-SKIP: CudaVramAdapter not run: %s\n", why.c_str());
    return;
  }
  check_contract(*cuda);
  const std::vector<hybrid::GpuCaps> gpus = hybrid::probe_gpus(cuda.get());
  REQUIRE_FALSE(gpus.empty());
  CHECK(gpus[0].id == "gpu0");
  CHECK(gpus[0].backend == hybrid::BackendKind::cuda);
  CHECK(gpus[0].vram_total_bytes > 0);
  CHECK(gpus[0].vram_free_bytes <= gpus[0].vram_total_bytes);
  CHECK(hybrid::vram_pressure(gpus).has_value());
}

TEST_CASE("vram: detect_vram_adapter picks CUDA with a device and the fake adapter without") {
  auto a = gpu::detect_vram_adapter();
  REQUIRE(a != nullptr);
  CHECK(a->is_available());
  const bool cuda = gpu::cuda_backend().backend != nullptr;
  CHECK((dynamic_cast<hybrid::FakeVramAdapter*>(a.get()) == nullptr) == cuda);
}
