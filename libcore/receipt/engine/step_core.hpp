#pragma once
// The numbers of one forward/backward pass, computed in the reference's operation order and kept in
// flat arrays (reused across samples and steps, so the inner loops do not allocate).
#include <cstddef>
#include <vector>

#include "common/result.hpp"
#include "receipt/engine/general_input.hpp"
#include "receipt/topology/topology_index.hpp"

namespace receipt::engine {

struct ForwardValues {
  std::vector<double> net_h, out_h, net_o, out_o;
};

struct StepCore {
  ForwardValues fwd;
  std::vector<double> loss_o;
  double loss_total = 0;
  // Output error signals. half_squared_error: signal = tmo * ad. cross_entropy_softmax: signal = y - p,
  // with the dual (Jacobian) form: term[u][j] = y_j * (delta_ju - p_u), summed over j in output order.
  std::vector<double> tmo, ad_o, sig_o;
  std::vector<double> dual_delta_minus_p, dual_term;  // [u * n_out + j]
  std::vector<double> dual_sum;                       // [u]
  // Hidden error signals: contribution[h][o] = sig_o * w_ho, summed over o; signal = sum * ad.
  std::vector<double> contrib;  // [h * n_out + o]
  std::vector<double> bsum_h, ad_h, sig_h;
  // Descent-direction gradient per parameter (meaningful where `updated` is set).
  std::vector<double> grad;
  std::vector<unsigned char> updated;
};

// Forward pass with `params` (aligned with parameter_order) on inputs `x`.
void run_forward(const topology::Topology& t, const topology::TopologyIndex& ix, const double* x, const double* params,
                 ForwardValues& out);

// Per-output loss and total (summed from 0 in output order).
[[nodiscard]] double compute_loss(topology::Loss loss, const double* targets, const double* out_o, std::size_t n_out,
                                  std::vector<double>& per_output);

// Forward, loss, backward and gradients for one sample.
void compute_step(const topology::Topology& t, const topology::TopologyIndex& ix, topology::BiasMode bias_mode,
                  const double* x, const double* y, const double* params, StepCore& core);

}  // namespace receipt::engine
