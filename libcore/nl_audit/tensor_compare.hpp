#pragma once
// Way (a) of rules 4-9: a receipt's numbers against the recomputation in the receipt's precision
// (fp32, or fp64 for an fp64 run's), bit for bit. A
// difference is a failure naming the tensor, the first entry that differs and both values;
// when bits are not expected (another machine's receipt) it is only counted, and way (b)
// judges the entry.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nl_audit/tensor_entry.hpp"
#include "nl_audit/verify.hpp"

namespace nl_audit {

// The shortest decimal that reads back as exactly `v` (locale-independent).
[[nodiscard]] std::string exact_text(double v);
[[nodiscard]] std::string exact_text(float v);

struct TensorCompare {
  std::int64_t line = 0;
  std::uint64_t step = 0;
  bool bits_expected = true;
  std::function<void(Failure)> fail;
  std::uint64_t* not_bitwise = nullptr;

  void differ(unsigned rule, const char* name, std::string stored, std::string recomputed) const;
  void scalar(unsigned rule, const char* name, double stored, double recomputed) const;
  void scalar(unsigned rule, const char* name, float stored, float recomputed) const;
  // Entry i of `stored` against entry i of `recomputed` (same layout, compared by digest), under
  // the rule rule_of(name), skipped where enabled(rule) is false; values_of(i) gives recomputed
  // tensor i's values, asked only to name the first entry that differs.
  void tensors(const std::vector<TensorEntry>& stored, const std::vector<TensorEntry>& recomputed,
               const std::function<unsigned(const std::string&)>& rule_of, const std::function<bool(unsigned)>& enabled,
               const std::function<std::vector<double>(std::size_t)>& values_of) const;
};

// An entry's values (f32 widened exactly, or f64), empty when it carries no bytes of its dtype.
[[nodiscard]] std::vector<double> widened_values(const TensorEntry& e);

// Whether every tensor of `a` has the digest of the same tensor of `b`.
[[nodiscard]] bool same_digests(const std::vector<TensorEntry>& a, const std::vector<TensorEntry>& b);

}  // namespace nl_audit
