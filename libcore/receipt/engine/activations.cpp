#include "receipt/engine/activations.hpp"

#include "receipt/engine/fdlibm.hpp"

namespace receipt::engine {

using topology::Activation;

double activate(Activation a, double x) {
  switch (a) {
    case Activation::sigmoid: return 1.0 / (1.0 + fdlibm::exp(-x));
    case Activation::identity: return x;
    case Activation::relu: return x > 0 ? x : 0.0;
    case Activation::softmax: break;  // a vector operation: see softmax()
  }
  return x;
}

double derivative_from_out(Activation a, double out) {
  switch (a) {
    case Activation::sigmoid: return out * (1.0 - out);
    case Activation::identity: return 1.0;
    case Activation::relu: return out > 0 ? 1.0 : 0.0;
    case Activation::softmax: break;
  }
  return 1.0;
}

void softmax(const double* logits, double* out, std::size_t n) {
  double max_z = logits[0];
  for (std::size_t i = 1; i < n; ++i) {
    if (logits[i] > max_z) max_z = logits[i];
  }
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = fdlibm::exp(logits[i] - max_z);
    sum = sum + out[i];
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = out[i] / sum;
}

}  // namespace receipt::engine
