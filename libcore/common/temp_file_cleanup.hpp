#pragma once
// Removing the temporary files of unfinished atomic writes when the process is told to stop.
//
// write_file_atomic registers each temporary file for the time it exists (PendingTempFile).
// A tool's main calls install_temp_file_cleanup() once: on SIGINT, SIGTERM or SIGHUP the
// handler unlinks every registered file, then lets the signal end the process as it would
// have (default action, same status). SIGKILL cannot be caught; the names of temporaries
// let the next write to the same target remove them (FileSystem::create_temp_beside).
#include <signal.h>

#include <string>

namespace common {

// Installs the handler for SIGINT, SIGTERM and SIGHUP (a signal the process ignores stays ignored).
void install_temp_file_cleanup();

// Unlinks every registered temporary file now. Async-signal-safe and allocation-free, for
// last-resort exits (a signal, running out of memory).
void remove_pending_temp_files() noexcept;

// Makes running out of memory a clean exit even where unwinding cannot run: nlohmann's DOM
// destructor allocates, so a std::bad_alloc thrown while a large document is alive can reach
// std::terminate (abort, exit 134) before any catch. The terminate handler installed here
// checks whether the exception in flight is std::bad_alloc; if so it removes pending
// temporary files, writes `line` (one line, ending in a newline) to stderr without
// allocating, and ends the process with `exit_status`. Any other cause aborts as before.
void install_out_of_memory_exit(const char* line, int exit_status);

// Registers `path` for removal by the signal handler until destroyed or release()d: a file is
// unlinked; a directory_tree (a scratch directory) is removed with everything in it. Holds
// no lock and allocates nothing; at most kMaxPendingTempFiles are registered at once (more
// are simply not registered: they are then cleaned up by the next write, as after SIGKILL).
class PendingTempFile {
 public:
  enum class Kind { file, directory_tree };
  explicit PendingTempFile(const std::string& path, Kind kind = Kind::file);
  ~PendingTempFile() { release(); }
  PendingTempFile(const PendingTempFile&) = delete;
  PendingTempFile& operator=(const PendingTempFile&) = delete;
  void release();

 private:
  int slot_ = -1;
};

inline constexpr int kMaxPendingTempFiles = 64;

// Holds SIGINT, SIGTERM and SIGHUP back while alive, so that a temporary file is never on disk
// unregistered (between its creation and PendingTempFile) nor registered after its name was
// renamed away (another writer may reuse that name). The calling thread blocks the signals, and
// a signal the handler takes on another thread meanwhile is only noted: the process ends when
// the last open scope (of any thread) closes, with a consistent registry. A scope opened after
// a stop signal came creates nothing: it waits for the process to end.
class DeferredStopSignals {
 public:
  DeferredStopSignals();
  ~DeferredStopSignals();
  DeferredStopSignals(const DeferredStopSignals&) = delete;
  DeferredStopSignals& operator=(const DeferredStopSignals&) = delete;

 private:
  sigset_t previous_{};
};

}  // namespace common
