#include "nl_audit/tensor_compare.hpp"

#include <array>
#include <bit>
#include <charconv>

namespace nl_audit {

std::string exact_text(double v) {
  std::array<char, 40> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

std::string exact_text(float v) {
  std::array<char, 40> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

void TensorCompare::differ(unsigned rule, const char* name, std::string stored, std::string recomputed) const {
  if (!bits_expected) {
    if (not_bitwise != nullptr) ++*not_bitwise;
    return;
  }
  Failure f;
  f.rule = rule, f.line = line, f.step = step, f.tensor = name;
  f.stored = std::move(stored), f.recomputed = std::move(recomputed), f.tolerance = "bitwise";
  f.message = std::string(name) + " differs from the recomputation";
  fail(std::move(f));
}

void TensorCompare::scalar(unsigned rule, const char* name, double stored, double recomputed) const {
  if (std::bit_cast<std::uint64_t>(stored) != std::bit_cast<std::uint64_t>(recomputed)) {
    differ(rule, name, exact_text(stored), exact_text(recomputed));
  }
}

void TensorCompare::scalar(unsigned rule, const char* name, float stored, float recomputed) const {
  if (std::bit_cast<std::uint32_t>(stored) != std::bit_cast<std::uint32_t>(recomputed)) {
    differ(rule, name, exact_text(stored), exact_text(recomputed));
  }
}

void TensorCompare::tensors(const std::vector<TensorEntry>& stored, const std::vector<TensorEntry>& recomputed,
                            const std::function<unsigned(const std::string&)>& rule_of,
                            const std::function<bool(unsigned)>& enabled,
                            const std::function<std::vector<double>(std::size_t)>& values_of) const {
  for (std::size_t i = 0; i < stored.size() && i < recomputed.size(); ++i) {
    const TensorEntry& s = stored[i];
    const TensorEntry& c = recomputed[i];
    const unsigned rule = rule_of(s.name);
    if (!enabled(rule) || s.sha256 == c.sha256) continue;
    if (!bits_expected) {
      if (not_bitwise != nullptr) ++*not_bitwise;
      continue;
    }
    Failure f;
    f.rule = rule, f.line = line, f.step = step, f.tensor = s.name, f.tolerance = "bitwise";
    const bool f64 = s.dtype == Dtype::f64;
    f.message = s.name + (f64 ? " differs from the fp64 recomputation" : " differs from the fp32 recomputation");
    const std::vector<double> sv = widened_values(s);
    if (!sv.empty()) {
      const std::vector<double> cv = values_of(i);
      // f32 values widen exactly, so their doubles differ exactly where their floats do.
      auto text = [f64](double v) { return f64 ? exact_text(v) : exact_text(static_cast<float>(v)); };
      for (std::size_t k = 0; k < sv.size(); ++k) {
        if (k < cv.size() && std::bit_cast<std::uint64_t>(sv[k]) != std::bit_cast<std::uint64_t>(cv[k])) {
          f.index = k, f.stored = text(sv[k]), f.recomputed = text(cv[k]);
          break;
        }
      }
    } else {
      f.stored = "sha256 " + s.sha256.substr(0, 16), f.recomputed = "sha256 " + c.sha256.substr(0, 16);
    }
    fail(std::move(f));
  }
}

std::vector<double> widened_values(const TensorEntry& e) {
  if (e.dtype == Dtype::f64) {
    auto v = tensor_values<double>(e);
    return v.ok() ? std::move(*v) : std::vector<double>{};
  }
  auto v = tensor_values<float>(e);
  return v.ok() ? std::vector<double>(v->begin(), v->end()) : std::vector<double>{};
}

bool same_digests(const std::vector<TensorEntry>& a, const std::vector<TensorEntry>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].sha256 != b[i].sha256) return false;
  }
  return true;
}

}  // namespace nl_audit
