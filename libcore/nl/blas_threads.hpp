#pragma once
// The BLAS library's own threads. A batched training step (batch_gradients.hpp) already runs one
// sequence per thread; OpenBLAS would split each matrix product over its own threads too, and
// two layers of threads on the same cores only contend (concurrent callers also queue for
// OpenBLAS's one thread server). So a batched run asks for one BLAS thread per call. This is
// about speed only: a product's sums do not depend on OpenBLAS's thread count (each output
// element is summed by one thread, in the kernel's order), which the tests of nltrain train
// check by comparing runs on 1, 2 and 3 threads bit for bit.
namespace nl {

// Sets OpenBLAS to one thread when the linked CBLAS is OpenBLAS (found by name at run time, as
// nl_audit::blas_identity does, so any CBLAS still links); returns whether it did. Process-wide:
// call it once, before the first product, from the thread that owns the run.
bool use_one_blas_thread();

}  // namespace nl
