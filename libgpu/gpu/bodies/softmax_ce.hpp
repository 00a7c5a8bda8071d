#pragma once
// Kernel bodies for the softmax cross-entropy loss of the output head (nltrain-math §9), around
// the two products the backend's gemm runs. Per row: the max, the sum of exp(x - max) in column
// order, the probabilities, and the row's loss log-sum-exp - x[target] widened to double; the
// rows' losses are then summed by ReduceRowsF64 in row order (a fixed order: no thread count or
// launch shape enters it). That is tape::ops::cross_entropy_forward's arithmetic, operation for
// operation, so on the CPU launcher the loss is the host's bits; on CUDA expf and logf round
// differently (the bound is in tests/cli/nltrain/device_test.py).
// Targets come as floats (exact below 2^24); an id >= vocab marks an ignored row: loss 0 (the
// host skips it; adding +0 to the double sum changes nothing), gradient 0.
#include <cmath>
#include <cstddef>

#include "gpu/bodies/adamw.hpp"  // mul_rn_f: a product CUDA never fuses into the subtraction
#include "gpu/hd.hpp"

namespace gpu {

struct SoftmaxCeArgs {
  std::size_t rows, vocab;
  const float* logits;   // rows x vocab
  const float* targets;  // rows
  float* probs;          // rows x vocab (written)
  double* row_loss;      // rows (written)
};

struct SoftmaxCeRows {
  using Args = SoftmaxCeArgs;
  GPU_HD static void run(const Args& a, std::size_t r) {
    const std::size_t V = a.vocab;
    const float* x = a.logits + r * V;
    float* p = a.probs + r * V;
    float mx = x[0];
    for (std::size_t j = 1; j < V; ++j) mx = x[j] > mx ? x[j] : mx;
    float sum = 0.f;
    for (std::size_t j = 0; j < V; ++j) sum += (p[j] = expf(x[j] - mx));
    if (sum > 0.f)  // always (exp(0) is in it): the host's guard, kept for the same code path
      for (std::size_t j = 0; j < V; ++j) p[j] /= sum;
    const auto t = static_cast<std::size_t>(a.targets[r]);
    a.row_loss[r] = t < V ? static_cast<double>((mx + logf(sum)) - x[t]) : 0.0;
  }
};

struct SoftmaxCeGradArgs {
  std::size_t rows, vocab;
  const float* probs;    // rows x vocab
  const float* targets;  // rows
  float c;               // g / n_valid
  float* g_logits;       // rows x vocab (written)
};

// g_logits = c p - c onehot(target), zero for ignored rows: the CrossEntropy VJP's rounding (the
// product first, then the subtraction at the target), one entry per index.
struct SoftmaxCeGrad {
  using Args = SoftmaxCeGradArgs;
  GPU_HD static void run(const Args& a, std::size_t idx) {
    const std::size_t r = idx / a.vocab, j = idx % a.vocab;
    const auto t = static_cast<std::size_t>(a.targets[r]);
    if (t >= a.vocab) {
      a.g_logits[idx] = 0.f;
      return;
    }
    const float v = mul_rn_f(a.c, a.probs[idx]);
    a.g_logits[idx] = j == t ? v - a.c : v;
  }
};

}  // namespace gpu
