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
// A record's work is split in two (import multi --jobs, common/in_order_fold.hpp): prepare (parse,
// its own checks, its facts, the engine's witness, the receipt's bytes) needs nothing from the
// other records but record 0's framework name and trace_id, so once record 0 is folded it may run
// on any thread in any order; fold takes the prepared records strictly in stream order and keeps
// everything that runs across them. add_line is the two in turn.
//
// Each receipt is written with a placeholder bundle_root_digest of the digest's length; finish()
// gives the digest (sha256 of the receipts' canonical bytes without the field) and the offsets, in
// the bytes written, where it replaces the placeholder (patch_digests).
//
// The stream's source hash may come after the first records (its reading runs beside the import,
// stream_file_import.cpp): until source_hash_known(), records are prepared with a placeholder
// (source_placeholder.hpp) and folded into a queue; their receipts are patched and written, in
// order, once it is known. The bytes are those of an import that knew the hash from the start.
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "common/sha256.hpp"
#include "importer/observer_import.hpp"
#include "importer/observer_receipt.hpp"
#include "importer/source_placeholder.hpp"
#include "importer/stream_facts.hpp"
#include "reconcile/read_json.hpp"

namespace importer {

struct StreamOutcome {
  std::vector<StepOutcome> steps;        // one per receipt
  std::string bundle_root_digest;        // "sha256:<hex>"
  std::vector<std::uint64_t> digest_at;  // ascending offsets of the placeholders in the bytes written
};

// What one record's import decided alone.
struct PreparedStep {
  std::string line;                          // the record's text: a rare failure needs its receipt again
  std::optional<common::Error> error;        // its own checks failed (nothing below is set)
  StepFacts facts;
  std::optional<std::string> witness_error;  // the engine's re-run failed: the stream's message
  bool witnessed = false;                    // outcome and the emission below are set
  StepOutcome outcome;
  std::optional<common::Error> emit_error;   // the receipt has a number it cannot spell
  bool plain_failed = false;                 // emit_error is the re-emission's without the field
  std::optional<std::string> unwritable;     // the field of that number, when emit_error is the first emission's
  std::string text;                          // the receipt line, with placeholder digests
  std::vector<std::size_t> placeholders;     // their offsets in text
  std::size_t field_at = std::string::npos;  // where the one bundle_root_digest field starts in text, or:
  std::string plain;                         // the receipt emitted without the field
  bool hash_pending = false;                 // text and plain carry the source hash's placeholder,
  bool trace_pending = false;                // and their trace_id its first half
};

class StreamImport {
 public:
  // `source_hash`: "sha256:<hex>" of the whole stream's bytes (receipts carry it, and a stream
  // without trace_id takes its trace_id from it), or nullopt until source_hash_known() gives it.
  // `write` takes each receipt line in turn.
  StreamImport(const ImportOptions& options, std::optional<std::string> source_hash,
               std::function<void(std::string_view)> write, SourcePlaceholder placeholder = {});

  // One line of the stream, its "\n" and a "\r" before it removed. A line that is blank (JavaScript
  // whitespace only) is not a record.
  [[nodiscard]] common::Status add_line(std::string_view line);
  // The same, the line taken rather than copied (a file's first record may be the whole file).
  [[nodiscard]] common::Status add_line(std::string&& line);
  // Record `index` (the non-blank lines before it), not blank; any thread, once record 0 is folded
  // (index 0: this thread, folded before the next is prepared). Without `witness` (a witness of an
  // earlier record failed, so none is wanted) only the checks and facts.
  [[nodiscard]] PreparedStep prepare(std::string&& line, std::size_t index, bool witness = true) const;
  // The next record, prepared, in stream order; a record's own failure ends the stream.
  [[nodiscard]] common::Status fold(PreparedStep& step);
  [[nodiscard]] std::size_t records() const { return records_; }
  // The fold's thread, once: the source hash, when the constructor had none. The records folded
  // so far are written.
  void source_hash_known(const std::string& source_hash);
  [[nodiscard]] bool source_hash_pending() const { return known_.load(std::memory_order_acquire) == nullptr; }
  // Bytes of the records folded and held for the source hash.
  [[nodiscard]] std::size_t held_bytes() const { return held_bytes_; }
  // Records prepared again once the hash was known, their placeholder not where it was written.
  [[nodiscard]] std::size_t prepared_again() const { return prepared_again_; }
  // After the last line (and at least one record), the source hash known.
  [[nodiscard]] common::Result<StreamOutcome> finish();

 private:
  // The checks, the facts and, when `witness`, the engine's re-run into `p`; true when there is a
  // receipt, composed into `receipt` from the sidecar read into `sidecar` (whose document holds
  // p.line's text until prepare gives it back). No tree of the sidecar is built.
  bool checked_receipt(PreparedStep& p, std::size_t i, bool witness, std::optional<reconcile::ReadReceipt>& sidecar,
                       std::optional<ComposedReceipt>& receipt) const;
  // The receipt's line into `p`, with the digest field's placeholder (and without the field, when
  // the placeholder's place in the line is not certain).
  void emit_prepared(PreparedStep& p, ComposedReceipt& receipt) const;
  // Writes a folded record, its placeholders replaced first (or the record prepared again, when
  // they are not where they were written).
  void emit_known(std::size_t i, PreparedStep& step);
  void emit(std::size_t i, PreparedStep& step);

  // What the source hash gives, published once to every preparing thread.
  struct Known {
    std::string source_hash;
    std::string trace_id;  // the receipts' trace_id, when record 0 took it from the placeholder
  };

  ImportOptions options_;
  std::string label_;
  SourcePlaceholder placeholder_;
  std::unique_ptr<Known> known_storage_;
  std::atomic<const Known*> known_{nullptr};
  std::string first_name_, trace_id_;  // record 0's framework name, the receipts' trace_id
  bool trace_from_placeholder_ = false;  // trace_id_ is the placeholder's half (record 0 had none)
  std::deque<std::pair<std::size_t, PreparedStep>> held_;  // folded before the hash was known
  std::size_t held_bytes_ = 0;
  std::size_t prepared_again_ = 0;
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
