// Rule 17: trace-bundle binding, gated on any record declaring attestor.bundle_root_digest. Then
// (a) every record declares it, (b) all declare the same value, (c) it is "sha256:<64 hex>", and
// (d) it equals the SHA-256 of the records' canonical lines, each with its own bundle_root_digest
// removed, concatenated in order. The first failing step is the one finding, as in the reference.
// Streamed: the hash runs record by record and stops as soon as (a)-(c) are already lost; kept
// between records are the first digest, two indices and the running hash.
#include <optional>
#include <string>

#include "common/find_text.hpp"
#include "common/sha256.hpp"
#include "reconcile/rules/attest_digest.hpp"
#include "reconcile/rules/multi_common.hpp"
#include "reconcile/rules/optim_common.hpp"
#include "reconcile/rules/rules.hpp"

namespace reconcile::rules {
namespace {

std::optional<std::string_view> declared_digest(const Json& r) {
  const Json* attestor = object_member(r, "attestor");
  return attestor ? string_member(*attestor, "bundle_root_digest") : std::nullopt;
}

// What Rule 17 reads of a record: its declared digest and, when that is one the bundle can be
// hashed under, its canonical line without the field.
struct BindingNotes final : RecordNotes {
  std::optional<std::string> digest;
  std::optional<CanonicalBytes> unbound;  // when digest is "sha256:<64 hex>"
};

// The record's canonical line without attestor.bundle_root_digest. Emitted once with the field and
// the field cut out when its key and value occur exactly once, after a comma (a key's quotes are
// never escaped, a string's always are, and a well-formed digest needs no escaping); otherwise
// emitted again from a copy without it.
CanonicalBytes unbound_bytes(const ReadReceipt& read, const std::string& digest) {
  CanonicalBytes bytes = canonical_bytes(read.root());
  if (bytes.ok) {
    const std::string field = "\"bundle_root_digest\":\"" + digest + "\"";
    const auto at = common::find_text(bytes.text, field);
    if (at != std::string::npos && at > 0 && bytes.text[at - 1] == ',' &&
        common::find_text(bytes.text, field, at + 1) == std::string::npos) {
      bytes.text.erase(at - 1, field.size() + 1);
      return bytes;
    }
  }
  Tree stripped = read.tree();
  erase_member(stripped, "attestor", "bundle_root_digest");
  return canonical_bytes(stripped);
}

class BundleBinding final : public CrossRecordRule {
 public:
  std::unique_ptr<RecordNotes> notes(const ReadReceipt& read) const override {
    const Json& r = read.root();
    auto n = std::make_unique<BindingNotes>();
    if (const auto digest = declared_digest(r)) {
      n->digest = std::string(*digest);
      if (is_sha256_digest(*digest)) n->unbound = unbound_bytes(read, n->digest.value());
    }
    return n;
  }

  void observe(std::size_t index, RecordNotes& notes) override {
    auto& n = static_cast<BindingNotes&>(notes);
    const std::optional<std::string>& digest = n.digest;
    if (digest) any_declared_ = true;
    if (!digest && !first_missing_) first_missing_ = index;
    if (index == 0) {
      if (digest) {
        first_ = *digest;
        first_well_formed_ = is_sha256_digest(*digest);
      }
    } else if (digest && first_ && *digest != *first_ && !mismatch_) {
      mismatch_ = index;
      mismatch_value_ = *digest;
    }
    // Hash only while the digest can still be the verdict's deciding step (then this record's
    // digest is the first's, well formed, so its notes hold the bytes).
    if (first_missing_ || mismatch_ || !first_well_formed_ || emit_error_) return;
    if (!n.unbound->ok) {
      emit_error_ = "record " + std::to_string(index) + ": " + n.unbound->error;
      return;
    }
    hash_.update(n.unbound->text);
  }

  void finish(FailureSink& out) override {
    if (!any_declared_) return;  // gated
    const char* kNote =
        " Rule 17 is a BUNDLE INTEGRITY check, NOT a producer-authenticity check.";
    if (first_missing_) {
      out.add(plain_failure(17, "receipts[" + std::to_string(*first_missing_) + "].attestor.bundle_root_digest",
                            "Rule 17 (trace-bundle binding): heterogeneous binding - some receipts declare "
                            "attestor.bundle_root_digest and others do not. First receipt missing the field: index " +
                                std::to_string(*first_missing_) + "." + kNote));
      return;
    }
    if (mismatch_) {
      out.add(plain_failure(17, "receipts[" + std::to_string(*mismatch_) + "].attestor.bundle_root_digest",
                            "Rule 17 (trace-bundle binding): bundle_root_digest mismatch at receipt[" +
                                std::to_string(*mismatch_) + "]. Expected " + *first_ + " (from receipt[0]); got " +
                                mismatch_value_ + ". All receipts in a bundle MUST declare the same value."));
      return;
    }
    if (!first_well_formed_) {
      out.add(plain_failure(17, "receipts[0].attestor.bundle_root_digest",
                            "Rule 17 (trace-bundle binding): bundle_root_digest " + Tree(std::string(*first_)).dump() +
                                " is not in the expected \"sha256:<64-hex>\" format."));
      return;
    }
    if (emit_error_) {
      out.add(plain_failure(17, "receipts[*].attestor.bundle_root_digest",
                            "Rule 17 (trace-bundle binding): canonical emission failed while recomputing the bundle "
                            "digest from receipts: " +
                                *emit_error_ + "."));
      return;
    }
    const std::string recomputed = "sha256:" + common::to_hex(hash_.finish());
    if (recomputed != *first_) {
      out.add(plain_failure(17, "receipts[*].attestor.bundle_root_digest",
                            "Rule 17 (trace-bundle binding): declared bundle_root_digest " + *first_ +
                                " does not match recomputed digest " + recomputed +
                                ". Receipt bytes have been mutated, spliced, or reordered after the bundle digest was "
                                "bound." +
                                kNote));
    }
  }

  std::size_t retained_state() const override { return 4; }

 private:
  bool any_declared_ = false;
  std::optional<std::size_t> first_missing_;
  std::optional<std::string> first_;
  bool first_well_formed_ = false;
  std::optional<std::size_t> mismatch_;
  std::string mismatch_value_;
  std::optional<std::string> emit_error_;
  common::Sha256 hash_;
};

}  // namespace

std::unique_ptr<CrossRecordRule> make_rule_17_bundle_binding() { return std::make_unique<BundleBinding>(); }

}  // namespace reconcile::rules
