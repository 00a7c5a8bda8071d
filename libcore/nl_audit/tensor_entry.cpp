#include "nl_audit/tensor_entry.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/sha256.hpp"

namespace nl_audit {

static_assert(std::endian::native == std::endian::little, "receipts store little-endian bytes; add a byte swap here");

std::size_t TensorEntry::count() const {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

template <typename T>
std::string tensor_digest(std::span<const T> values) {
  return common::to_hex(common::sha256(std::as_bytes(values)));
}

template <typename T>
TensorEntry tensor_entry(std::string name, std::vector<std::size_t> shape, std::span<const T> values, bool with_bytes) {
  constexpr Dtype dtype = std::is_same_v<T, double> ? Dtype::f64 : Dtype::f32;
  TensorEntry e{std::move(name), std::move(shape), dtype, tensor_digest(values), std::nullopt};
  if (with_bytes) {
    const auto b = std::as_bytes(values);
    e.bytes.emplace(b.begin(), b.end());
  }
  return e;
}

template <typename T>
common::Result<std::vector<T>> tensor_values(const TensorEntry& e) {
  constexpr bool f64 = std::is_same_v<T, double>;
  const char* type = f64 ? "f64" : "f32";
  if (e.dtype != (f64 ? Dtype::f64 : Dtype::f32)) return common::Error::malformed("tensor " + e.name + ": expected dtype " + type);
  if (!e.bytes) return common::Error::malformed("tensor " + e.name + ": carries no data (compact receipt)");
  if (e.bytes->size() != e.count() * sizeof(T)) {
    return common::Error::malformed("tensor " + e.name + ": " + std::to_string(e.bytes->size()) + " bytes for " +
                                    std::to_string(e.count()) + " " + type + " values");
  }
  std::vector<T> v(e.count());
  if (!v.empty()) std::memcpy(v.data(), e.bytes->data(), e.bytes->size());
  return v;
}

template std::string tensor_digest<float>(std::span<const float>);
template std::string tensor_digest<double>(std::span<const double>);
template TensorEntry tensor_entry<float>(std::string, std::vector<std::size_t>, std::span<const float>, bool);
template TensorEntry tensor_entry<double>(std::string, std::vector<std::size_t>, std::span<const double>, bool);
template common::Result<std::vector<float>> tensor_values<float>(const TensorEntry&);
template common::Result<std::vector<double>> tensor_values<double>(const TensorEntry&);

}  // namespace nl_audit
