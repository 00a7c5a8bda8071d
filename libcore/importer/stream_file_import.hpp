#pragma once
// `bp import <framework> multi` on a file or a pipe, in memory that does not grow with the stream:
// the input is read twice (a pipe is first copied to an anonymous temporary file), once for its
// sha256, which every receipt carries, then a line at a time (StreamImport); the receipts go to a
// spool and come out of it with the bundle digest in place. The stream has no length limit; one
// line is capped at common::kMaxJsonInputBytes. A helper capture (helper_capture.hpp) is expanded
// in memory, within that same cap, as import_sidecar_stream does. With more than one job, a
// regular file's first reading runs on a thread of its own beside the second (the records wait
// for the hash in StreamImport).
//
// Should a file's bytes change between the two readings (another process writing it), the import
// is refused: the receipts would name the hash of bytes they were not made from.
#include <functional>
#include <future>
#include <string>
#include <string_view>

#include "common/result.hpp"
#include "common/spool.hpp"
#include "importer/observer_import.hpp"
#include "importer/stream_import.hpp"

namespace importer {

// Reads `fd` to its end; the receipts are appended to `receipts` (open)
// with placeholder digests. Errors: the import's own (malformed), or io for a read or a spool
// write that failed, a line too long, or an input that changed while it was read. The messages do
// not name the input: the caller's line does.
[[nodiscard]] common::Result<StreamOutcome> import_sidecar_stream_fd(int fd, const ImportOptions& options,
                                                                     common::Spool& receipts);

// The second reading alone: the stream on `fd`, whose bytes the caller hashed to `source_hash`
// (the receipts carry it); an io error when the bytes read now hash to something else.
[[nodiscard]] common::Result<StreamOutcome> import_hashed_stream(int fd, const std::string& source_hash,
                                                                 const ImportOptions& options, common::Spool& receipts);

// The same, the first reading's outcome (the hash, or why it failed) coming from `first` (a thread
// reading it beside this one): records are imported before it comes and held until it does, and
// its failure is returned over any the second reading finds, as when it ran first.
[[nodiscard]] common::Result<StreamOutcome> import_hashed_stream(int fd, std::future<common::Result<std::string>> first,
                                                                 const ImportOptions& options, common::Spool& receipts);

// The spooled receipts to `sink`, in chunks, each placeholder replaced by the bundle digest; false
// when reading the spool back failed or `sink` returned false.
[[nodiscard]] bool replay_receipts(common::Spool& receipts, const StreamOutcome& outcome,
                                   const std::function<bool(std::string_view)>& sink);

}  // namespace importer
