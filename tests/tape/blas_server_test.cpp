// common::end_idle_blas_threads against the OpenBLAS the tape links: its workers are gone
// afterwards, and a product that wants several threads starts them again and sums the same.
#include <doctest/doctest.h>

#include <cblas.h>
#include <dlfcn.h>

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "common/blas_server.hpp"

namespace {

int process_threads() {
  std::ifstream status("/proc/self/status");
  std::string key;
  int n = -1;
  while (status >> key) {
    if (key == "Threads:") {
      status >> n;
      break;
    }
  }
  return n;
}

int openblas_threads() {
  using Get = int (*)();
  auto get = reinterpret_cast<Get>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return get ? get() : 0;
}

// C = A B for n x n matrices of a fixed pattern: big enough that OpenBLAS splits it.
std::vector<double> product(int n) {
  std::vector<double> a(static_cast<std::size_t>(n) * n), b(a.size()), c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(i % 13) / 7.0 - 0.9;
    b[i] = static_cast<double>(i % 11) / 5.0 - 1.1;
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
  return c;
}

}  // namespace

TEST_CASE("blas server: the idle workers end, and a later product brings them back with the same sums") {
  const int workers = openblas_threads() - 1;
  if (workers < 1) {
    MESSAGE("skipped: OpenBLAS runs one thread here (or the BLAS is not OpenBLAS)");
    return;
  }
  const std::vector<double> before = product(384);  // the server is running now
  const int running = process_threads();
  REQUIRE(common::end_idle_blas_threads());
  CHECK(process_threads() == running - workers);
  CHECK(product(384) == before);
  CHECK(process_threads() == running);  // started again by the product
  REQUIRE(common::end_idle_blas_threads());
  CHECK(process_threads() == running - workers);
}
