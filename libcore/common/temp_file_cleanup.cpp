#include "common/temp_file_cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

namespace common {
namespace {

// A slot is free (0), being filled or emptied (1), or holds a path the handler may unlink (2).
struct Slot {
  std::atomic<int> state{0};
  bool tree = false;  // a directory registered as one, removed with its contents
  char path[PATH_MAX] = {};
};

std::array<Slot, kMaxPendingTempFiles> g_slots;

// Empties the directory open at `dir` and closes it, with system calls only (open, getdents64,
// unlinkat, close: nothing that allocates or locks), so a signal handler may run it. Entries
// are read in passes until a pass finds nothing, since unlinking while reading may skip some.
// The head of a record getdents64 returns (struct linux_dirent64).
struct DirEntry {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

void empty_directory(int dir, int depth) noexcept {
  alignas(8) char buf[4096];
  for (int pass = 0; pass < 64; ++pass) {
    bool removed = false;
    ::lseek(dir, 0, SEEK_SET);
    for (;;) {
      const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* e = reinterpret_cast<const DirEntry*>(buf + at);
        at += e->reclen;
        const char* name = e->name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
        if (e->type == DT_DIR && depth > 0) {
          const int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0) empty_directory(sub, depth - 1);
          if (::unlinkat(dir, name, AT_REMOVEDIR) == 0) removed = true;
        } else if (::unlinkat(dir, name, 0) == 0) {
          removed = true;
        }
      }
    }
    if (!removed) break;
  }
  ::close(dir);
}

// A stop signal is directed at the process: the kernel runs the handler on any thread that does
// not block it (a BLAS worker started before main, say), while another thread may be inside a
// DeferredStopSignals scope, between creating a file and registering it. So the scopes are
// counted process-wide: a signal that finds one open is only noted, and the last scope to close
// ends the process. The pairs (note the signal, then read the count) and (change the count, then
// read the note) are sequentially consistent, so at least one side sees the other: a signal is
// never lost, and no file is created after the cleanup ran.
std::atomic<int> g_open_scopes{0};
std::atomic<int> g_stop_signal{0};  // the first stop signal received, 0 while none

[[noreturn]] void end_process(int sig) noexcept {
  remove_pending_temp_files();
  ::signal(sig, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // not reached: the default action of a stop signal ends the process
}

extern "C" void common_on_stop_signal(int sig) {
  int none = 0;
  g_stop_signal.compare_exchange_strong(none, sig);
  if (g_open_scopes.load() > 0) return;  // the last scope to close ends the process
  end_process(g_stop_signal.load());
}

const char* g_oom_line = nullptr;
int g_oom_status = 2;
std::terminate_handler g_previous_terminate = nullptr;

[[noreturn]] void terminate_on_out_of_memory() {
  bool out_of_memory = false;
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    } catch (...) {
    }
  }
  if (out_of_memory && g_oom_line != nullptr) {
    remove_pending_temp_files();
    (void)!::write(STDERR_FILENO, g_oom_line, std::strlen(g_oom_line));
    ::_exit(g_oom_status);
  }
  if (g_previous_terminate != nullptr) g_previous_terminate();
  std::abort();
}

}  // namespace

void remove_pending_temp_files() noexcept {
  const int saved_errno = errno;
  for (Slot& s : g_slots) {
    if (s.state.load() != 2) continue;
    if (!s.tree) {
      ::unlink(s.path);
      continue;
    }
    // A directory registered as one (a scratch directory) goes with everything in it; links in
    // it are removed, never followed. A file's name found to be a directory is left alone.
    const int dir = ::open(s.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) empty_directory(dir, 16);
    ::rmdir(s.path);
  }
  errno = saved_errno;
}

void install_out_of_memory_exit(const char* line, int exit_status) {
  g_oom_line = line;
  g_oom_status = exit_status;
  g_previous_terminate = std::set_terminate(terminate_on_out_of_memory);
}

void install_temp_file_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup, background jobs
    struct sigaction sa {};
    sa.sa_handler = common_on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

PendingTempFile::PendingTempFile(const std::string& path, Kind kind) {
  if (path.size() >= PATH_MAX) return;
  for (int i = 0; i < kMaxPendingTempFiles; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].tree = kind == Kind::directory_tree;
      g_slots[i].state.store(2);
      slot_ = i;
      return;
    }
  }
}

void PendingTempFile::release() {
  if (slot_ < 0) return;
  g_slots[slot_].state.store(0);
  slot_ = -1;
}

DeferredStopSignals::DeferredStopSignals() {
  sigset_t stop;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop, sig);
  ::pthread_sigmask(SIG_BLOCK, &stop, &previous_);
  g_open_scopes.fetch_add(1);
  if (const int sig = g_stop_signal.load(); sig != 0) {
    // Stopping already: create nothing. The cleanup is running or waits for other scopes.
    if (g_open_scopes.fetch_sub(1) == 1) end_process(sig);
    for (;;) ::pause();
  }
}

DeferredStopSignals::~DeferredStopSignals() {
  g_open_scopes.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);  // a signal held for this thread runs now
  if (const int sig = g_stop_signal.load(); sig != 0 && g_open_scopes.load() == 0) end_process(sig);
}

}  // namespace common
