#include "common/sha256.hpp"

// libcrypto's SHA-256 routines themselves (the same code, SHA-NI or AVX2 as the CPU has, that the
// EVP interface reaches), not EVP: EVP's first digest initialises OpenSSL 3's provider and name
// tables, 4.5M instructions (about a millisecond) at every start of a tool that hashes anything.
// Declared deprecated in 3.0 in favour of EVP; the 1.1.1 API level keeps them without warnings.
#define OPENSSL_API_COMPAT 10101
#include <openssl/sha.h>

#include <new>
#include <stdexcept>

namespace common {

Sha256::Sha256() : ctx_(new SHA256_CTX) {
  if (SHA256_Init(static_cast<SHA256_CTX*>(ctx_)) != 1) {
    delete static_cast<SHA256_CTX*>(ctx_);
    throw std::runtime_error("OpenSSL SHA-256 initialisation failed");  // our bug or a broken libcrypto
  }
}

Sha256::~Sha256() { delete static_cast<SHA256_CTX*>(ctx_); }

void Sha256::update(std::span<const std::byte> data) {
  SHA256_Update(static_cast<SHA256_CTX*>(ctx_), data.data(), data.size());
}

void Sha256::update(std::string_view text) { SHA256_Update(static_cast<SHA256_CTX*>(ctx_), text.data(), text.size()); }

Sha256Digest Sha256::finish() {
  Sha256Digest out{};
  SHA256_Final(out.data(), static_cast<SHA256_CTX*>(ctx_));
  return out;
}

Sha256Digest sha256(std::span<const std::byte> data) {
  Sha256 h;
  h.update(data);
  return h.finish();
}

Sha256Digest sha256(std::string_view text) {
  Sha256 h;
  h.update(text);
  return h.finish();
}

std::string to_hex(const Sha256Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (auto b : digest) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

std::string sha256_hex(std::string_view text) { return to_hex(sha256(text)); }

}  // namespace common
