#include "nl_audit/tensor_entry.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#include "common/sha256.hpp"

namespace nl_audit {
namespace {

static_assert(std::endian::native == std::endian::little, "receipts store little-endian bytes; add a byte swap here");

std::span<const std::byte> bytes_of(std::span<const float> v) { return std::as_bytes(v); }

}  // namespace

std::size_t TensorEntry::count() const {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

std::string f32_digest(std::span<const float> values) { return common::to_hex(common::sha256(bytes_of(values))); }

TensorEntry f32_entry(std::string name, std::vector<std::size_t> shape, std::span<const float> values, bool with_bytes) {
  TensorEntry e{std::move(name), std::move(shape), Dtype::f32, f32_digest(values), std::nullopt};
  if (with_bytes) {
    const auto b = bytes_of(values);
    e.bytes.emplace(b.begin(), b.end());
  }
  return e;
}

common::Result<std::vector<float>> f32_values(const TensorEntry& e) {
  if (e.dtype != Dtype::f32) return common::Error::malformed("tensor " + e.name + ": expected dtype f32");
  if (!e.bytes) return common::Error::malformed("tensor " + e.name + ": carries no data (compact receipt)");
  if (e.bytes->size() != e.count() * sizeof(float)) {
    return common::Error::malformed("tensor " + e.name + ": " + std::to_string(e.bytes->size()) + " bytes for " +
                                    std::to_string(e.count()) + " f32 values");
  }
  std::vector<float> v(e.count());
  if (!v.empty()) std::memcpy(v.data(), e.bytes->data(), e.bytes->size());
  return v;
}

}  // namespace nl_audit
