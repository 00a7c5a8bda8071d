#pragma once
// The verifier of nltrain's step receipts (`bp verify nltrain`): a stream of receipt lines in,
// one verdict per rule out, memory flat in the number of receipts (it keeps one state).
//
// Rules (man bp, "verify nltrain"):
//   1 schema     the receipt reads strictly (receipt.hpp); a failure here is malformed input
//   2 chain      index, previous digest, step counter, model, data and kernels continue; the
//                state before a step is the state after the previous one
//   3 data       chunk, offset and context reset follow from the step; targets are the ids
//                shifted by one; with the data file, the tokens are its bytes
//   4 loss       5 gradient (with frozen levels' error contributions)   6 clip (norm, factor)
//   7 schedule   the pulse and the learning rate of the step
//   8 adamw      parameters, moments and step counts after the update
//   9 memory     context memory, error buffers and their counts after the step
// Rules 4-9 re-derive every number two ways: (a) bit for bit in the receipt's precision (fp32, or
// binary64 for an fp64 run's) through libcore/nl's hand-written backward (never the tape); (b) in
// binary64, each entry within a tolerance from an error bound of its computation in the receipt's
// precision (fp64_checks.hpp). A stored value that differs from (a) fails unless `cross_machine`
// is set (receipts of another BLAS core type), and then must pass (b).
// Receipts whose kernels.device names libgpu's kernels (nltrain --device cpu-launcher|cuda) are
// held to (b) likewise: (a) replays nl's hand-written arithmetic, not those kernels' summation
// order. The device may change between receipts (a run resumed on another device).
// With `threads` > 1, way (b) of one step runs on a second thread while way (a) of the next one
// runs on the caller's; failures are reported in the order a single thread gives them.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "nl/trainer.hpp"
#include "nl_audit/receipt.hpp"

namespace nl_audit {

struct RuleInfo {
  unsigned number;
  std::string_view name;
};
inline constexpr std::array<RuleInfo, 9> kRules = {{{1, "schema"},
                                                    {2, "chain"},
                                                    {3, "data"},
                                                    {4, "loss"},
                                                    {5, "gradient"},
                                                    {6, "clip"},
                                                    {7, "schedule"},
                                                    {8, "adamw"},
                                                    {9, "memory"}}};

struct Failure {
  unsigned rule = 0;
  std::int64_t line = 0;
  std::uint64_t step = 0;
  std::string tensor;                // empty when the failure is not about one tensor
  std::optional<std::size_t> index;  // the first entry that differs
  std::string stored, recomputed, tolerance;  // as text; empty when not applicable
  std::string message;
};

struct VerifyOptions {
  std::optional<std::string> data;  // the training data's bytes (needed by compact receipts)
  bool cross_machine = false;       // accept (b) where the bits differ
  bool fp64 = true;                 // run (b)
  unsigned threads = 1;             // 2 or more: (b) of a step beside (a) of the next
  std::array<bool, 10> disabled{};  // rule numbers not run (tests show each rule is needed)
};

struct RuleTally {
  std::uint64_t checked = 0, failed = 0;
};

class StreamVerifier {
 public:
  explicit StreamVerifier(VerifyOptions o);
  StreamVerifier(StreamVerifier&&) noexcept;
  StreamVerifier& operator=(StreamVerifier&&) noexcept;
  ~StreamVerifier();

  // One receipt line. An error is malformed input or unusable options (the stream stops there);
  // verification failures are collected.
  [[nodiscard]] common::Status add(std::string_view line, const std::string& file, std::int64_t line_no);

  // The results below wait for the step whose way (b) may still be running.
  [[nodiscard]] std::uint64_t receipts() const;
  [[nodiscard]] const std::vector<Failure>& failures() const;  // at most kMaxFailures kept
  [[nodiscard]] std::uint64_t failure_count() const;
  [[nodiscard]] const std::array<RuleTally, 10>& tally() const;  // by rule number
  [[nodiscard]] std::uint64_t not_bitwise() const;  // entries accepted under cross_machine by (b)
  // Steps whose loss, gradients and contexts (b) judged norm-wise: a branch inside the per-entry
  // bounds, or a bound that overflowed, left those bounds unproven (fp64_checks.hpp).
  [[nodiscard]] std::uint64_t normwise_steps() const;
  // The receipts' BLAS (kernels.blas of the first) when it is not this machine's, else empty:
  // their fp32 bits may then not be reproducible here.
  [[nodiscard]] std::string foreign_blas() const;
  [[nodiscard]] std::string local_blas() const;
  // The first kernels.device among the receipts (libgpu's kernels ran those steps; their values
  // whose bits differ from (a) were held to (b)), else empty.
  [[nodiscard]] std::string kernel_device() const;

  static constexpr std::size_t kMaxFailures = 100;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nl_audit
