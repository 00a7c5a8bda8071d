#include "importer/source_placeholder.hpp"

#include <cstddef>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/find_text.hpp"

namespace importer {
namespace {

constexpr std::size_t kPlaceholderHex = 64;
constexpr std::size_t kPlaceholderHalf = kPlaceholderHex / 2;
constexpr std::string_view kSha256Prefix = "sha256:";

std::string random_placeholder_hex() {
  std::random_device device;  // getrandom(2) on Linux
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(kPlaceholderHex);
  while (hex.size() < kPlaceholderHex) {
    const unsigned word = device();
    for (int nibble = 0; nibble < 8 && hex.size() < kPlaceholderHex; ++nibble) hex += kDigits[(word >> (4 * nibble)) & 0xF];
  }
  return hex;
}

std::vector<std::size_t> placeholder_places(std::string_view text, std::string_view needle) {
  std::vector<std::size_t> at;
  for (auto k = common::find_text(text, needle); k != std::string_view::npos; k = common::find_text(text, needle, k + 1)) {
    at.push_back(k);
  }
  return at;
}

}  // namespace

SourcePlaceholder::SourcePlaceholder() : SourcePlaceholder(random_placeholder_hex()) {}

SourcePlaceholder::SourcePlaceholder(std::string hex) : hash_(std::string(kSha256Prefix) + hex) {
  if (hex.size() != kPlaceholderHex || hex.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw std::invalid_argument("SourcePlaceholder: 64 lowercase hex digits wanted");
  }
}

bool SourcePlaceholder::patch(std::string& text, std::string_view real, bool with_trace) const {
  if (real.size() != kSha256Prefix.size() + kPlaceholderHex) return false;
  const std::string_view p = std::string_view(hash_).substr(kSha256Prefix.size());
  const std::vector<std::size_t> whole = placeholder_places(text, hash_);
  const std::vector<std::size_t> first = placeholder_places(text, p.substr(0, kPlaceholderHalf));
  const std::vector<std::size_t> second = placeholder_places(text, p.substr(kPlaceholderHalf));
  if (whole.size() != 1 || second.size() != 1 || first.size() != (with_trace ? 2 : 1)) return false;
  const std::size_t hash_at = whole.front() + kSha256Prefix.size();
  if (second.front() != hash_at + kPlaceholderHalf) return false;
  const std::string_view digits = real.substr(kSha256Prefix.size());
  for (const std::size_t at : first) text.replace(at, kPlaceholderHalf, digits.substr(0, kPlaceholderHalf));
  text.replace(hash_at + kPlaceholderHalf, kPlaceholderHalf, digits.substr(kPlaceholderHalf));
  return true;
}

}  // namespace importer
