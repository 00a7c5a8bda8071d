#pragma once
// Every kernel body the launchers know, as an X-macro: X(id, Body). The CPU launcher and the CUDA
// launcher expand the same list, so a body added here runs on both.
#include "gpu/bodies/matrix_rules.hpp"
#include "gpu/bodies/swa.hpp"

#define GPU_KERNELS(X)                   \
  X(matrix_forward, MatrixForward)       \
  X(matrix_backward, MatrixBackward)     \
  X(reduce_rows, ReduceRows)             \
  X(swa_forward, SwaForwardBody)         \
  X(swa_backward_query, SwaBackwardQueryBody) \
  X(swa_backward_key, SwaBackwardKeyBody)

namespace gpu {

enum class KernelId : int {
#define GPU_KERNEL_ID(id, Body) id,
  GPU_KERNELS(GPU_KERNEL_ID)
#undef GPU_KERNEL_ID
};

// The argument struct of a kernel, for type-checked launches: launch(backend, KernelId::x, args, n).
template <KernelId>
struct KernelArgs;
#define GPU_KERNEL_ARGS(id, Body)         \
  template <>                             \
  struct KernelArgs<KernelId::id> {       \
    using type = Body::Args;              \
  };
GPU_KERNELS(GPU_KERNEL_ARGS)
#undef GPU_KERNEL_ARGS

}  // namespace gpu
