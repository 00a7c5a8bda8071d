#include "receipt/engine/step_core.hpp"

#include "receipt/engine/activations.hpp"
#include "receipt/engine/losses.hpp"

namespace receipt::engine {

using topology::Activation;
using topology::Loss;
using topology::Role;

void run_forward(const topology::Topology& t, const topology::TopologyIndex& ix, const double* x, const double* params,
                 ForwardValues& f) {
  f.net_h.resize(ix.n_hid);
  f.out_h.resize(ix.n_hid);
  f.net_o.resize(ix.n_out);
  f.out_o.resize(ix.n_out);
  for (std::size_t h = 0; h < ix.n_hid; ++h) {
    double net = 0;
    const std::uint32_t* row = &ix.w_ih[h * ix.n_in];
    for (std::size_t i = 0; i < ix.n_in; ++i) net = net + x[i] * params[row[i]];
    net = net + params[ix.bias_hidden[h]];
    f.net_h[h] = net;
    f.out_h[h] = activate(t.activation_hidden, net);
  }
  for (std::size_t o = 0; o < ix.n_out; ++o) {
    double net = 0;
    const std::uint32_t* row = &ix.w_ho[o * ix.n_hid];
    for (std::size_t h = 0; h < ix.n_hid; ++h) net = net + f.out_h[h] * params[row[h]];
    net = net + params[ix.bias_output[o]];
    f.net_o[o] = net;
    if (t.activation_output != Activation::softmax) f.out_o[o] = activate(t.activation_output, net);
  }
  if (t.activation_output == Activation::softmax) softmax(f.net_o.data(), f.out_o.data(), ix.n_out);
}

double compute_loss(Loss loss, const double* targets, const double* out_o, std::size_t n_out,
                    std::vector<double>& per_output) {
  per_output.resize(n_out);
  double total = 0;
  for (std::size_t o = 0; o < n_out; ++o) {
    const double e = loss == Loss::cross_entropy_softmax ? cross_entropy(targets[o], out_o[o])
                                                         : half_squared_error(targets[o], out_o[o]);
    per_output[o] = e;
    total = total + e;
  }
  return total;
}

void compute_step(const topology::Topology& t, const topology::TopologyIndex& ix, topology::BiasMode bias_mode,
                  const double* x, const double* y, const double* params, StepCore& c) {
  const std::size_t n_out = ix.n_out;
  const std::size_t n_hid = ix.n_hid;
  run_forward(t, ix, x, params, c.fwd);
  c.loss_total = compute_loss(t.loss, y, c.fwd.out_o.data(), n_out, c.loss_o);

  c.sig_o.resize(n_out);
  if (t.loss == Loss::cross_entropy_softmax) {
    c.dual_delta_minus_p.resize(n_out * n_out);
    c.dual_term.resize(n_out * n_out);
    c.dual_sum.resize(n_out);
    for (std::size_t u = 0; u < n_out; ++u) {
      const double p_u = c.fwd.out_o[u];
      c.sig_o[u] = y[u] - p_u;
      double sum = 0;
      for (std::size_t j = 0; j < n_out; ++j) {
        const double dmp = (j == u ? 1.0 : 0.0) - p_u;
        const double term = y[j] * dmp;
        c.dual_delta_minus_p[u * n_out + j] = dmp;
        c.dual_term[u * n_out + j] = term;
        sum = j == 0 ? term : sum + term;  // the first term starts the sum (no 0 + term)
      }
      c.dual_sum[u] = sum;
    }
  } else {
    c.tmo.resize(n_out);
    c.ad_o.resize(n_out);
    for (std::size_t o = 0; o < n_out; ++o) {
      c.tmo[o] = y[o] - c.fwd.out_o[o];
      c.ad_o[o] = derivative_from_out(t.activation_output, c.fwd.out_o[o]);
      c.sig_o[o] = c.tmo[o] * c.ad_o[o];
    }
  }

  c.contrib.resize(n_hid * n_out);
  c.bsum_h.resize(n_hid);
  c.ad_h.resize(n_hid);
  c.sig_h.resize(n_hid);
  for (std::size_t h = 0; h < n_hid; ++h) {
    double sum = 0;
    for (std::size_t o = 0; o < n_out; ++o) {
      const double v = c.sig_o[o] * params[ix.w_ho[o * n_hid + h]];
      c.contrib[h * n_out + o] = v;
      sum = sum + v;
    }
    c.bsum_h[h] = sum;
    c.ad_h[h] = derivative_from_out(t.activation_hidden, c.fwd.out_h[h]);
    c.sig_h[h] = sum * c.ad_h[h];
  }

  const std::size_t np = ix.slots.size();
  c.grad.resize(np);
  c.updated.resize(np);
  for (std::size_t k = 0; k < np; ++k) {
    const topology::ParameterSlot& s = ix.slots[k];
    switch (s.role) {
      case Role::input_to_hidden_weight:
        c.grad[k] = c.sig_h[s.to] * x[s.from];
        c.updated[k] = 1;
        break;
      case Role::hidden_to_output_weight:
        c.grad[k] = c.sig_o[s.to] * c.fwd.out_h[s.from];
        c.updated[k] = 1;
        break;
      case Role::hidden_bias:
        c.grad[k] = c.sig_h[s.from];
        c.updated[k] = bias_mode == topology::BiasMode::sgd ? 1 : 0;
        break;
      case Role::output_bias:
        c.grad[k] = c.sig_o[s.from];
        c.updated[k] = bias_mode == topology::BiasMode::sgd ? 1 : 0;
        break;
    }
  }
}

}  // namespace receipt::engine
