#pragma once
// Every kernel body the launchers know, as an X-macro: X(id, Body). The CPU launcher and the CUDA
// launcher expand the same list, so a body added here runs on both.
#include "gpu/bodies/adamw.hpp"
#include "gpu/bodies/gemm.hpp"
#include "gpu/bodies/lattice.hpp"
#include "gpu/bodies/matrix_rules.hpp"
#include "gpu/bodies/mlp_rules.hpp"
#include "gpu/bodies/softmax_ce.hpp"
#include "gpu/bodies/swa.hpp"
#include "gpu/bodies/trellis.hpp"

#define GPU_KERNELS(X)                   \
  X(matrix_forward, MatrixForward)       \
  X(matrix_backward, MatrixBackward)     \
  X(reduce_rows, ReduceRows)             \
  X(reduce_rows_f64, ReduceRowsF64)      \
  X(square_partials, SquarePartials)     \
  X(adamw, AdamWBody)                    \
  X(gemm, GemmBody)                      \
  X(swa_forward, SwaForwardBody)         \
  X(swa_backward_query, SwaBackwardQueryBody) \
  X(swa_backward_key, SwaBackwardKeyBody) \
  X(softmax_ce_rows, SoftmaxCeRows)      \
  X(softmax_ce_grad, SoftmaxCeGrad)

// Phased bodies (Body::kPhases, Body::width(args, phase), Body::run(args, step, phase, i)): for
// each step, each phase over its own index space, with a barrier between phases.
#define GPU_PHASED_KERNELS(X) \
  X(mlp_forward, MlpForward)  \
  X(mlp_backward, MlpBackward) \
  X(lattice_forward, LatticeForward) \
  X(lattice_backward, LatticeBackward) \
  X(trellis_forward, TrellisForward) \
  X(trellis_backward, TrellisBackward)

namespace gpu {

enum class PhasedId : int {
#define GPU_PHASED_ID(id, Body) id,
  GPU_PHASED_KERNELS(GPU_PHASED_ID)
#undef GPU_PHASED_ID
};

template <PhasedId>
struct PhasedArgs;
#define GPU_PHASED_ARGS(id, Body)         \
  template <>                             \
  struct PhasedArgs<PhasedId::id> {       \
    using type = Body::Args;              \
  };
GPU_PHASED_KERNELS(GPU_PHASED_ARGS)
#undef GPU_PHASED_ARGS

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
