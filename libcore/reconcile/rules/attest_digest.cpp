#include "reconcile/rules/attest_digest.hpp"

#include <optional>
#include <utility>

#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_line.hpp"

namespace reconcile::rules {

bool is_sha256_digest(std::string_view s) noexcept {
  constexpr std::string_view kPrefix = "sha256:";
  if (s.size() != kPrefix.size() + 64 || s.substr(0, kPrefix.size()) != kPrefix) return false;
  for (char c : s.substr(kPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

void erase_member(Tree& obj, std::string_view parent, std::string_view key) {
  if (!obj.is_object()) return;
  for (auto& [k, v] : obj.get_ref<Tree::object_t&>()) {
    if (k != parent || !v.is_object()) continue;
    auto& inner = v.get_ref<Tree::object_t&>();
    for (auto it = inner.begin(); it != inner.end();) {
      it = it->first == key ? inner.erase(it) : std::next(it);
    }
  }
}

namespace {

constexpr const char* kMazurRefused = "the general canonical layout does not apply to a schema_version 0.1.0 receipt";

CanonicalBytes bytes_of(common::Result<std::string>&& line) {
  CanonicalBytes out;
  if (!line) {
    out.error = line.error().message();
    return out;
  }
  out.ok = true;
  out.text = std::move(*line);
  return out;
}

}  // namespace

// The reference always uses its general emitter here; a v0.1.0 (Mazur) receipt has none of the
// general layout's required sections, so it cannot be emitted that way.
CanonicalBytes canonical_bytes(const Tree& receipt) {
  const Tree* version = member(receipt, "schema_version");
  if (version && version->is_string() && version->get_ref<const std::string&>() == "0.1.0") {
    return {.ok = false, .text = {}, .error = kMazurRefused};
  }
  return bytes_of(receipt::emit::emit_receipt_line(receipt));
}

CanonicalBytes canonical_bytes(const Json& receipt) {
  if (string_member(receipt, "schema_version") == std::optional<std::string_view>("0.1.0")) {
    return {.ok = false, .text = {}, .error = kMazurRefused};
  }
  return bytes_of(receipt::emit::emit_general_receipt_line(receipt));
}

}  // namespace reconcile::rules
