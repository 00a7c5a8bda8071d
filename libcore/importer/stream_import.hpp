#pragma once
// A multi-step sidecar stream imported one record at a time: parse, the record's own checks, its
// facts for the cross-record rules, then witness, build and emit, and free its trees before the
// next, so that memory does not grow with the record count. Where the lines come from and where
// the receipts go is the caller's: a string in memory (import_sidecar_stream), or a file read
// twice and a spool (stream_file_import.hpp).
//
// The outcome is that of checking every record, then the cross-record rules, then witnessing every
// record and emitting the bundle: a record's own failure is returned by add_line at once (every
// earlier record passed its checks); in finish(), a broken cross-record rule wins over any witness
// failure, and a witness failure over an emission failure at an earlier record; an emission
// failure names the first receipt holding a number a receipt cannot spell. After a witness failure
// only the checks still run, and nothing more is written.
//
// Each receipt is written with a placeholder bundle_root_digest of the digest's length; finish()
// gives the digest (sha256 of the receipts' canonical bytes without the field) and the offsets, in
// the bytes written, where it replaces the placeholder (patch_digests).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "common/sha256.hpp"
#include "importer/observer_import.hpp"
#include "importer/stream_facts.hpp"

namespace importer {

struct StreamOutcome {
  std::vector<StepOutcome> steps;        // one per receipt
  std::string bundle_root_digest;        // "sha256:<hex>"
  std::vector<std::uint64_t> digest_at;  // ascending offsets of the placeholders in the bytes written
};

class StreamImport {
 public:
  // `source_hash`: "sha256:<hex>" of the whole stream's bytes (receipts carry it, and a stream
  // without trace_id takes its trace_id from it). `write` takes each receipt line in turn.
  StreamImport(const ImportOptions& options, std::string source_hash, std::function<void(std::string_view)> write);

  // One line of the stream, its "\n" and a "\r" before it removed. A line that is blank (JavaScript
  // whitespace only) is not a record.
  [[nodiscard]] common::Status add_line(std::string_view line);
  [[nodiscard]] std::size_t records() const { return records_; }
  // After the last line (and at least one record).
  [[nodiscard]] common::Result<StreamOutcome> finish();

 private:
  void emit(std::size_t i, nlohmann::ordered_json& receipt);

  ImportOptions options_;
  std::string label_, source_hash_, trace_id_;
  std::function<void(std::string_view)> write_;
  std::uint64_t written_ = 0;
  std::size_t records_ = 0;
  StreamFacts facts_;
  std::optional<std::string> witness_error_;
  std::optional<common::Error> emit_error_;
  std::optional<std::string> unwritable_at_;
  bool name_field_ = true;  // false for a failure of the re-emission without the field
  common::Sha256 unbound_hash_;  // the digest's input: the receipts without the field
  StreamOutcome outcome_;
};

// Overwrites, in `chunk` (the bytes written from offset `chunk_at` on), the parts of every
// placeholder of `outcome` that fall inside it with the digest.
void patch_digests(const StreamOutcome& outcome, std::uint64_t chunk_at, std::span<char> chunk);

}  // namespace importer
