#include "common/temp_file_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>

namespace common {
namespace {

// A slot is free (0), being filled or emptied (1), or holds a path the handler may unlink (2).
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX] = {};
};

std::array<Slot, kMaxPendingTempFiles> g_slots;

extern "C" void remove_pending_and_reraise(int sig) {
  for (Slot& s : g_slots) {
    if (s.state.load() == 2) ::unlink(s.path);  // async-signal-safe
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_temp_file_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup, background jobs
    struct sigaction sa {};
    sa.sa_handler = remove_pending_and_reraise;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

PendingTempFile::PendingTempFile(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  for (int i = 0; i < kMaxPendingTempFiles; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
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

}  // namespace common
