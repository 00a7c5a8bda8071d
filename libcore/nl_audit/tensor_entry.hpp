#pragma once
// One tensor of a step receipt: its name, shape, element type, the SHA-256 of its bytes
// (little-endian IEEE-754, row-major) and, unless the section is compact, the bytes themselves
// (base64 in the JSON). Values travel as their bits, so an fp32 or fp64 value comes back exact.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.hpp"

namespace nl_audit {

enum class Dtype : unsigned char { f32, f64 };

struct TensorEntry {
  std::string name;
  std::vector<std::size_t> shape;  // empty for a scalar
  Dtype dtype = Dtype::f32;
  std::string sha256;                          // lowercase hex of the bytes
  std::optional<std::vector<std::byte>> bytes;  // absent: compact (digest only)

  [[nodiscard]] std::size_t count() const;  // product of shape (1 for a scalar)
};

// T = float: an f32 entry; T = double: f64 (an fp64 run's, nltrain train --fp64).
template <typename T>
[[nodiscard]] TensorEntry tensor_entry(std::string name, std::vector<std::size_t> shape, std::span<const T> values, bool with_bytes);
// The values of an entry of T's dtype that carries its bytes; an error names the entry otherwise.
template <typename T>
[[nodiscard]] common::Result<std::vector<T>> tensor_values(const TensorEntry& e);
// The SHA-256 hex a tensor with these values has.
template <typename T>
[[nodiscard]] std::string tensor_digest(std::span<const T> values);

[[nodiscard]] inline TensorEntry f32_entry(std::string name, std::vector<std::size_t> shape, std::span<const float> values,
                                           bool with_bytes) {
  return tensor_entry<float>(std::move(name), std::move(shape), values, with_bytes);
}
[[nodiscard]] inline common::Result<std::vector<float>> f32_values(const TensorEntry& e) { return tensor_values<float>(e); }
[[nodiscard]] inline std::string f32_digest(std::span<const float> values) { return tensor_digest<float>(values); }

}  // namespace nl_audit
