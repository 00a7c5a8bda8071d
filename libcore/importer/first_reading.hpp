#pragma once
// The first of the two readings `bp import <framework> multi` makes of a stream (stream_file_import.hpp):
// its sha256, which every receipt carries, with the line limit enforced as the second reading
// enforces it, and the helper's capture recognised. Internal to the importer.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "common/result.hpp"
#include "common/spool.hpp"
#include "importer/observer_import.hpp"

namespace importer::detail {

// The errors of a reading. The file's name comes first in the line the CLI prints, so these name
// only the importer.
[[nodiscard]] common::Error read_failed(const ImportOptions& options, int err);
[[nodiscard]] common::Error line_too_long(const ImportOptions& options, std::int64_t line_number);
// A write to a spool (the receipts', or a pipe's copy) failed.
[[nodiscard]] common::Error spool_failed(const ImportOptions& options);

// Every chunk `fd` gives, until its end, to `take` (false: stop there); the errno of a failed read,
// else 0.
[[nodiscard]] int read_chunks(int fd, const std::function<bool(std::string_view)>& take);
// The same from `fd`'s offset `at` on, by pread(2): the descriptor's own offset does not move, so
// another thread may read it meanwhile.
[[nodiscard]] int pread_chunks(int fd, off_t at, const std::function<bool(std::string_view)>& take);

// `fd`'s offset when it is a regular file (read again from there), else -1.
[[nodiscard]] off_t regular_file_offset(int fd);

// The first reading: the bytes' sha256, whether they are a helper capture, and a descriptor from
// which the same bytes can be read again (`fd` itself, rewound, or a copy of what a pipe gave, in
// `copy`).
struct FirstReading {
  std::string source_hash;
  bool capture = false;
  int again = -1;
};
[[nodiscard]] common::Result<FirstReading> read_first(int fd, const ImportOptions& options, common::Spool& copy);

// The sha256 ("sha256:<hex>") of a regular file from offset `start` on, read by pread.
[[nodiscard]] common::Result<std::string> hash_from(int fd, off_t start, const ImportOptions& options);

}  // namespace importer::detail
