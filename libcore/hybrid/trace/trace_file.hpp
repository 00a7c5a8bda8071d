#pragma once
// A Chrome trace file written while a run goes on (nltrain train --trace-out): the events go to
// a temporary file beside the target as the caller hands them over (append), so memory holds
// only the events not yet handed over, however long the run; finish() closes the JSON, syncs
// and renames the temporary over the target. A TraceFile dropped unfinished removes its
// temporary (and a signal that ends the process does too: common::PendingTempFile), so the
// target is the old file or a whole trace, never a torn one.
// open() refuses, before anything is written: a target whose directory does not exist, a
// symbolic link (the rename would replace the link, not what it points to; saying so beats
// doing either silently), a directory, a device or a FIFO.
#include <memory>
#include <string>

#include "common/file_system.hpp"
#include "common/result.hpp"
#include "common/temp_file_cleanup.hpp"
#include "hybrid/trace/trace_events.hpp"

namespace hybrid {

class TraceFile {
 public:
  [[nodiscard]] static common::Result<TraceFile> open(common::FileSystem& fs, const std::string& path);
  TraceFile(TraceFile&&) noexcept = default;
  TraceFile& operator=(TraceFile&&) noexcept = default;
  ~TraceFile();

  // Writes the events added to `events` since the last append and forgets them there.
  [[nodiscard]] common::Status append(TraceEvents& events);
  // Closes the trace: the file at the target is now a whole trace. Nothing may follow.
  [[nodiscard]] common::Status finish();

 private:
  TraceFile(common::FileSystem& fs, std::string path, common::TempFile temp);
  [[nodiscard]] common::Status write(std::string_view text);
  void discard();

  common::FileSystem* fs_ = nullptr;
  std::string path_;
  common::TempFile temp_;
  std::unique_ptr<common::PendingTempFile> pending_;  // unlinked by a stopping signal
  bool any_ = false;                                  // items already written
};

}  // namespace hybrid
