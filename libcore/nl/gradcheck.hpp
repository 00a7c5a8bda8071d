#pragma once
// gradcheck: the MAG model's three gradient paths side by side on the verification
// configuration of nltrain-math §11, per parameter tensor: the tape (tape_gradients), the
// hand-written backward (cms_backward) and central finite differences of cms_forward.
//  - default: the §11 protocol (fp32, bias tweaks, all levels active, fresh context; FD
//    eps 1e-2 on 20 sampled entries per tensor, pass iff den < 5e-4 or rel < 0.10);
//  - stress: every gate bias 0, every weight x3, a random initial context memory and levels
//    alternately active and frozen (frozen levels are checked through their error buffers);
//  - fp64: the hand-written backward and FD in double precision on every entry, eps 1e-6,
//    pass iff |a - fd| <= 1e-4 max(|a|, |fd|) + 1e-8.
//  - perturb: the negative control. One entry of the hand-written gradient (fp32 and fp64) is
//    moved by a given amount before the comparisons, so the check is known to face a wrong
//    gradient; a working gradcheck reports that tensor as a mismatch (tape~hand always; FD when
//    the entry is among those sampled: every entry under fp64, entries i max(1, n/20) under fp32).
//    `nltrain gradcheck --perturb-gradient` exposes it.
//  - learned schedule: the frequency gate's mask is a step function of E and W_freq/b_freq, whose
//    true derivative is zero almost everywhere; cms_backward passes the selection's dL/dm straight
//    through to the logits instead. So every FD is taken with the mask held at the gate's hard
//    choice (cms_forward_with_mask); E is compared without the straight-through term (which is
//    checked through b_freq), b_freq[i] against the FD of the loss in m_i, and W_freq[i][j]
//    against that times x-bar[j]. The gate's choice is the pulse: the protocol sets every b_freq
//    to +4 (all levels active), stress to -4 / +4 alternately (level l active iff l is even).
// The tape is always fp32 and is compared with the fp32 hand-written backward entry by entry:
// |tape - hand| <= 2e-4 max(|tape|, |hand|) + 1e-5 s, s the largest |tape| or |hand| of the
// tensor. On --device cpu the two are equal bit for bit; through libgpu's kernels (cpu-launcher)
// the worst entry of all nine rules, K = 1..3, stress and learned, needed 9e-7 s beyond the
// relative term: the floor keeps an 11x margin and still sees a 0.1% error of a tensor whose
// gradients are all ~1e-9 (an absolute 1e-6 floor hid every error there).
inline constexpr double kTapeRelative = 2e-4;
inline constexpr double kTapeFloorOfScale = 1e-5;
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/result.hpp"
#include "nl/mag_config.hpp"
#include "tape/opaque/opaque_registry.hpp"

namespace nl {

// Adds `amount` to entry `index` of the hand-written gradient of the tensor named `tensor`
// (a name of named_tensors: "W_O", "levels/0/W_Q", ...).
struct GradientPerturbation {
  std::string tensor;
  std::size_t index = 0;
  double amount = 0;
};

struct GradcheckOptions {
  RuleKind rule = RuleKind::delta;
  std::size_t levels = 1;  // K; periods [1, 8, 64, ...]
  bool stress = false;
  bool fp64 = false;
  std::optional<GradientPerturbation> perturb;  // the negative control; see above
  FrequencySchedule schedule = FrequencySchedule::fixed;  // learned needs K >= 2
};

struct TensorCheck {
  std::string name;
  std::size_t size = 0;
  bool frozen = false;            // a frozen level's tensor: its gradient is the error-buffer contribution
  double max_abs_grad = 0;        // of the hand-written gradient
  double tape_vs_hand = 0;        // max |tape - hand| / max(|tape|, |hand|, 1e-12)
  std::size_t tape_failed = 0;
  // Finite differences: fd_checked entries were sampled; of those, fd_compared were held to the
  // tolerance and fd_skipped passed without a comparison because den = max(|a|, |fd|) was below
  // the fp32 floor 5e-4 (fp64 compares every entry). The worst errors are over compared entries
  // only, so they are empty when nothing was compared, never a reassuring 0.
  std::size_t fd_checked = 0, fd_compared = 0, fd_skipped = 0, fd_failed = 0;
  std::optional<double> fd_worst_abs;  // max |a - fd|
  std::optional<double> fd_worst_rel;  // max |a - fd| / den over compared entries with den > 0
  std::string first_failure;      // "W_Q[3] analytic .. fd .." or empty
  [[nodiscard]] bool passed() const { return tape_failed == 0 && fd_failed == 0; }
};

struct GradcheckReport {
  MagConfig cfg;
  GradcheckOptions opt;
  std::vector<bool> active;  // the pulse (under a learned schedule: the gate's choice)
  double loss = 0;
  std::vector<TensorCheck> tensors;
  std::string gate_failure;  // learned schedule: the paths' gates disagreed on the levels (a failure)
  [[nodiscard]] bool passed() const;
};

// Errors: invalid_argument for K = 0 or K > 8, a learned schedule with K = 1 (naming
// "schedule"), and for a perturbation naming no tensor, an index
// beyond the tensor or an amount that is zero or not finite.
[[nodiscard]] common::Result<GradcheckReport> gradcheck(const tape::opaque::OpaqueRegistry& registry,
                                                        const GradcheckOptions& opt);

}  // namespace nl
