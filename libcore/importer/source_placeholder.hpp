#pragma once
// A stand-in for the stream's source hash while its first reading is still under way
// (stream_file_import.cpp reads it beside the import when jobs > 1): receipts are written with
// "sha256:<P>", P 64 random hex digits drawn per import, and, where the receipts' trace_id is
// derived from the hash, with P's first 32 digits; once the hash is known both are replaced in
// place (same lengths, hex needs no escaping, so nothing else in the receipt moves).
//
// A receipt that does not hold P exactly where it was written (a sidecar's own string spelling
// it: 128 random bits, never seen outside this process) is refused by patch(), and the caller
// writes that receipt again with the real hash.
#include <string>
#include <string_view>

namespace importer {

class SourcePlaceholder {
 public:
  SourcePlaceholder();                                     // a fresh P from the system's random source
  explicit SourcePlaceholder(std::string hex);             // tests: a chosen P (64 lowercase hex digits)

  // "sha256:<P>": what the receipts carry as source_hash until the hash is known.
  [[nodiscard]] const std::string& source_hash() const { return hash_; }

  // Replaces P in `text` by the hex of `real` ("sha256:<64 hex>"): `text` must hold "sha256:<P>"
  // exactly once and, when `with_trace`, P's first half once more on its own (the trace_id);
  // false, `text` unchanged, when it does not.
  [[nodiscard]] bool patch(std::string& text, std::string_view real, bool with_trace) const;

 private:
  std::string hash_;
};

}  // namespace importer
