#pragma once
// SHA-256 through OpenSSL's libcrypto.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace common {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::span<const std::byte> data);
Sha256Digest sha256(std::string_view text);
std::string to_hex(const Sha256Digest& digest);  // lowercase, 64 chars
std::string sha256_hex(std::string_view text);

// Incremental hashing for large inputs.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::span<const std::byte> data);
  void update(std::string_view text);
  Sha256Digest finish();

 private:
  void* ctx_;  // SHA256_CTX*, kept opaque so no OpenSSL header leaks out
};

}  // namespace common
