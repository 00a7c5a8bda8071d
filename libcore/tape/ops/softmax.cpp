#include "tape/ops/softmax.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/tracked.hpp"
#include "tape/recorder.hpp"

namespace tape::ops {

namespace {

// The mean over rows accumulates in double for fp32 and fp64, and at binary64's rounding for the
// audit scalar (Tracked<float> -> Tracked<double>).
template <typename T>
struct Wide {
  using type = double;
};
template <typename A>
struct Wide<common::Tracked<A>> {
  using type = common::Tracked<double>;
};

template <typename T>
struct RowStats {
  T max, sum;
};

// o = softmax(x) over one row of n >= 1 (max subtracted; divided by the sum when it is > 0).
template <typename T>
RowStats<T> softmax_row(const T* x, T* o, std::size_t n) {
  using std::exp, std::max;  // and the audit scalar's by argument-dependent lookup
  T mx = x[0];
  for (std::size_t j = 1; j < n; ++j) mx = max(mx, x[j]);
  T sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    o[j] = exp(x[j] - mx);
    sum += o[j];
  }
  if (sum > T(0))
    for (std::size_t j = 0; j < n; ++j) o[j] /= sum;
  return {mx, sum};
}

}  // namespace

template <typename T>
void softmax_forward(std::span<const T> x, std::span<T> out, std::size_t rows, std::size_t cols) {
  if (cols == 0) return;
  for (std::size_t r = 0; r < rows; ++r) (void)softmax_row(x.data() + r * cols, out.data() + r * cols, cols);
}

template <typename T>
T cross_entropy_forward(std::span<const T> logits, std::span<const std::size_t> targets, std::size_t vocab,
                        std::span<T> probs) {
  using W = typename Wide<T>::type;
  using std::log;
  W total = 0.0;  // the mean over rows accumulates in double
  std::size_t n_valid = 0;
  for (std::size_t r = 0; r < targets.size(); ++r) {
    const T* xr = logits.data() + r * vocab;
    const RowStats<T> st = softmax_row(xr, probs.data() + r * vocab, vocab);  // sum >= 1: exp(0) is in it
    if (targets[r] >= vocab) continue;                                     // ignore-index
    const T log_sum_exp = st.max + log(st.sum);
    total += static_cast<W>(log_sum_exp - xr[targets[r]]);
    ++n_valid;
  }
  return n_valid == 0 ? T(0) : static_cast<T>(total / static_cast<W>(n_valid));
}

template void softmax_forward<float>(std::span<const float>, std::span<float>, std::size_t, std::size_t);
template void softmax_forward<double>(std::span<const double>, std::span<double>, std::size_t, std::size_t);
template float cross_entropy_forward<float>(std::span<const float>, std::span<const std::size_t>, std::size_t,
                                            std::span<float>);
template double cross_entropy_forward<double>(std::span<const double>, std::span<const std::size_t>, std::size_t,
                                              std::span<double>);
template common::Tracked<float> cross_entropy_forward<common::Tracked<float>>(std::span<const common::Tracked<float>>, std::span<const std::size_t>, std::size_t,
                                              std::span<common::Tracked<float>>);
template common::Tracked<double> cross_entropy_forward<common::Tracked<double>>(std::span<const common::Tracked<double>>, std::span<const std::size_t>, std::size_t,
                                              std::span<common::Tracked<double>>);

Tensor softmax(const Tensor& x) {
  const std::size_t rows = x.shape().rows(), cols = x.shape().cols();
  if (cols == 0 && rows != 0) throw TapeError("Softmax", "rows must not be empty", {x.shape()});
  Recorder rec("Softmax");
  const BufId ix = rec.input(x);
  NewBuffer out = rec.output(x.shape());
  softmax_forward<float>(x.data(), out.data, rows, cols);
  rec.check_finite(out.data, {x.shape()});
  rec.record(SoftmaxOp{ix, out.tensor.id(), rows, cols});
  return std::move(out.tensor);
}

Tensor cross_entropy(const Tensor& logits, std::span<const std::size_t> targets) {
  const Shape& s = logits.shape();
  if (s.rank() != 2) throw TapeError("CrossEntropy", "logits must have rank 2 [n, vocab]", {s});
  const std::size_t n = s.dim(0), vocab = s.dim(1);
  if (vocab == 0) throw TapeError("CrossEntropy", "vocabulary is empty", {s});
  if (targets.size() != n) {
    throw TapeError("CrossEntropy",
                    std::to_string(targets.size()) + " targets for " + std::to_string(n) + " rows of logits", {s});
  }
  Recorder rec("CrossEntropy");
  const BufId il = rec.input(logits);
  std::vector<float> untraced_probs;
  NewBuffer probs;
  if (rec.recording()) {
    probs = rec.saved(s);
  } else {
    untraced_probs.resize(s.numel());
    probs.data = untraced_probs;
  }
  NewBuffer out = rec.output(Shape{});
  out.data[0] = cross_entropy_forward<float>(logits.data(), targets, vocab, probs.data);
  rec.check_finite(out.data, {s});
  const auto n_valid = static_cast<std::size_t>(
      std::count_if(targets.begin(), targets.end(), [vocab](std::size_t t) { return t < vocab; }));
  rec.record(CrossEntropyOp{il, std::vector<std::size_t>(targets.begin(), targets.end()), out.tensor.id(),
                            probs.tensor.id(), vocab, n_valid});
  return std::move(out.tensor);
}

// d_x = y * (d_out - <d_out, y>) per row
void backward(const SoftmaxOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.input);
  if (g.empty() || dx.empty()) return;
  const std::span<const float> y = tape.data(op.out);
  for (std::size_t r = 0; r < op.rows; ++r) {
    const std::size_t o = r * op.cols;
    float dot = 0.0f;
    for (std::size_t j = 0; j < op.cols; ++j) dot += g[o + j] * y[o + j];
    for (std::size_t j = 0; j < op.cols; ++j) dx[o + j] += y[o + j] * (g[o + j] - dot);
  }
}

// d_logits[t, j] = d_out * (p[t, j] - 1{j == target_t}) / n_valid, zero for ignored rows.
void backward(const CrossEntropyOp& op, Tape& tape) {
  const std::span<const float> g = tape.grad(op.out);
  std::span<float> dx = tape.grad_accumulator(op.logits);
  if (g.empty() || dx.empty() || op.n_valid == 0) return;
  const std::span<const float> p = tape.data(op.probs);
  const float c = g[0] / static_cast<float>(op.n_valid);
  for (std::size_t r = 0; r < op.targets.size(); ++r) {
    const std::size_t t = op.targets[r];
    if (t >= op.vocab_size) continue;
    const std::size_t o = r * op.vocab_size;
    for (std::size_t j = 0; j < op.vocab_size; ++j) dx[o + j] += c * p[o + j];
    dx[o + t] -= c;
  }
}

}  // namespace tape::ops
