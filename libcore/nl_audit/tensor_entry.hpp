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

[[nodiscard]] TensorEntry f32_entry(std::string name, std::vector<std::size_t> shape, std::span<const float> values,
                                    bool with_bytes);
// The values of an f32 entry that carries its bytes; an error names the entry otherwise.
[[nodiscard]] common::Result<std::vector<float>> f32_values(const TensorEntry& e);
// The SHA-256 hex an f32 tensor with these values has.
[[nodiscard]] std::string f32_digest(std::span<const float> values);

}  // namespace nl_audit
