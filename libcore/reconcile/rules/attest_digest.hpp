#pragma once
// Canonical bytes and digests for Rules 16 and 17: the reference hashes the general emitter's
// canonical line of a receipt (whatever its schema_version) with the bound field removed, and
// writes digests as "sha256:<64 lowercase hex>".
#include <string>
#include <string_view>

#include "common/sha256.hpp"
#include "reconcile/json_access.hpp"

namespace reconcile::rules {

[[nodiscard]] bool is_sha256_digest(std::string_view s) noexcept;

// Removes every occurrence of obj[parent][key] (obj and obj[parent] objects; otherwise no-op).
void erase_member(Tree& obj, std::string_view parent, std::string_view key);

struct CanonicalBytes {
  bool ok = false;
  std::string text;   // one line ending in "\n" when ok
  std::string error;  // why emission failed otherwise
};
// The general emitter's canonical line (the reference's emitGeneralReceipt), also for 0.1.0 receipts.
[[nodiscard]] CanonicalBytes canonical_bytes(const Tree& receipt);
// The same bytes for a receipt as the rules read it (no tree is made of it).
[[nodiscard]] CanonicalBytes canonical_bytes(const Json& receipt);

}  // namespace reconcile::rules
