// bp loads its BLAS (OpenBLAS) on the first product, not at start. Only `bp verify nltrain`
// multiplies matrices; every other command paid for the library anyway: its 14,000 symbol
// relocations and the server threads it starts at load (each ended again by the tool) took
// 1.9 ms of CPU at every start (an empty program linked with it: 2.6 ms against 0.7), a third of
// a one-step import's. These definitions of the CBLAS calls libcore makes stand in for the
// library's in bp's link (apps/bp/CMakeLists.txt: the library is then not needed, and not named);
// the first opens the library (its soname, SUITE_BLAS_SONAME, found at configure time) and ends the
// idle threads it started (common/blas_server.hpp); each forwards to the library's function.
#include <cblas.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "common/blas_server.hpp"

namespace {

[[noreturn]] void unavailable(const char* what, const char* why) {
  std::fprintf(stderr, "bp: cannot use the BLAS library %s (%s): %s\n", SUITE_BLAS_SONAME, what, why ? why : "");
  std::fflush(stderr);
  std::_Exit(2);
}

void* library() {
  static void* const handle = [] {
    void* h = dlopen(SUITE_BLAS_SONAME, RTLD_NOW | RTLD_GLOBAL);
    if (h == nullptr) unavailable("loading it", dlerror());
    // OpenBLAS started its server threads as it loaded; they would spin for 0.1 s each. Opened
    // into the global scope, it is found by name as a library linked at start would be.
    (void)common::end_idle_blas_threads();
    return h;
  }();
  return handle;
}

template <class F>
F* resolved(const char* name) {
  void* f = dlsym(library(), name);
  if (f == nullptr) unavailable(name, dlerror());
  return reinterpret_cast<F*>(f);
}

}  // namespace

extern "C" {

void cblas_sgemm(const CBLAS_ORDER order, const CBLAS_TRANSPOSE ta, const CBLAS_TRANSPOSE tb, const blasint m,
                 const blasint n, const blasint k, const float alpha, const float* a, const blasint lda, const float* b,
                 const blasint ldb, const float beta, float* c, const blasint ldc) {
  static auto* const f = resolved<decltype(cblas_sgemm)>("cblas_sgemm");
  f(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_dgemm(const CBLAS_ORDER order, const CBLAS_TRANSPOSE ta, const CBLAS_TRANSPOSE tb, const blasint m,
                 const blasint n, const blasint k, const double alpha, const double* a, const blasint lda,
                 const double* b, const blasint ldb, const double beta, double* c, const blasint ldc) {
  static auto* const f = resolved<decltype(cblas_dgemm)>("cblas_dgemm");
  f(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_sgemv(const CBLAS_ORDER order, const CBLAS_TRANSPOSE t, const blasint m, const blasint n, const float alpha,
                 const float* a, const blasint lda, const float* x, const blasint incx, const float beta, float* y,
                 const blasint incy) {
  static auto* const f = resolved<decltype(cblas_sgemv)>("cblas_sgemv");
  f(order, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void cblas_dgemv(const CBLAS_ORDER order, const CBLAS_TRANSPOSE t, const blasint m, const blasint n, const double alpha,
                 const double* a, const blasint lda, const double* x, const blasint incx, const double beta, double* y,
                 const blasint incy) {
  static auto* const f = resolved<decltype(cblas_dgemv)>("cblas_dgemv");
  f(order, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void cblas_sger(const CBLAS_ORDER order, const blasint m, const blasint n, const float alpha, const float* x,
                const blasint incx, const float* y, const blasint incy, float* a, const blasint lda) {
  static auto* const f = resolved<decltype(cblas_sger)>("cblas_sger");
  f(order, m, n, alpha, x, incx, y, incy, a, lda);
}

void cblas_dger(const CBLAS_ORDER order, const blasint m, const blasint n, const double alpha, const double* x,
                const blasint incx, const double* y, const blasint incy, double* a, const blasint lda) {
  static auto* const f = resolved<decltype(cblas_dger)>("cblas_dger");
  f(order, m, n, alpha, x, incx, y, incy, a, lda);
}

// What libcore asks before it names the library's own entry points (common/blas_server.hpp):
// they are looked up by name, so the library is opened into the global scope.
void suite_load_blas() { (void)library(); }

}  // extern "C"
