#pragma once
// What decides the bits of an fp32 step on this machine besides the code: the BLAS library and,
// for OpenBLAS, the core type its dispatcher picked (another core type may sum in another order).
#include <string>

namespace nl_audit {

// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64 (core Haswell)", or "cblas
// (unidentified)" for a BLAS that does not say.
[[nodiscard]] std::string blas_identity();

}  // namespace nl_audit
