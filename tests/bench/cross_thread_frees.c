// Counts the blocks a process frees on a thread other than the one that allocated them, and the
// code that frees the most of them; cross_thread_frees.sh builds it and runs a command under it.
// Such a free costs mimalloc (and glibc) far more than a local one, and the allocator's next
// allocations on the maker's thread pay for it again: with bp verify multi --jobs 2, four per
// record were most of what two jobs cost beyond one (issue 30).
//
// An LD_PRELOAD library: malloc, calloc, realloc, free and the C++ delete operators are wrapped
// (the allocator under them is the process's own, found with dlsym(RTLD_NEXT)); each live block's
// maker is kept in a fixed open-addressing table under one lock, so it is slow and meant for
// counting only. Not for sanitized builds, whose runtime must come first.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { kSlots = 1 << 22, kSites = 4096, kShown = 12 };
static const uintptr_t kGone = 1;  // a freed slot: probes go on past it
static uintptr_t block_at[kSlots];
static int maker[kSlots];
static uintptr_t site_pc[kSites];
static long site_count[kSites];
static long allocations, frees, cross, untracked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static __thread int thread_id;
static __thread int inside;  // backtrace() may allocate: not counted

static int self(void) {
  if (thread_id == 0) thread_id = (int)syscall(SYS_gettid);
  return thread_id;
}

static void find_next(void) {
  if (next_malloc) return;
  next_malloc = dlsym(RTLD_NEXT, "malloc");
  next_calloc = dlsym(RTLD_NEXT, "calloc");
  next_realloc = dlsym(RTLD_NEXT, "realloc");
  next_free = dlsym(RTLD_NEXT, "free");
}

static uint32_t slot_of(uintptr_t p) { return (uint32_t)((p >> 4) * 2654435761u) & (kSlots - 1); }

static void made(void *p) {
  if (p == NULL || inside) return;
  const int who = self();
  pthread_mutex_lock(&lock);
  ++allocations;
  uint32_t s = slot_of((uintptr_t)p);
  for (uint32_t probes = 0; block_at[s] > kGone && probes < kSlots; ++probes) s = (s + 1) & (kSlots - 1);
  if (block_at[s] <= kGone) {
    block_at[s] = (uintptr_t)p;
    maker[s] = who;
  } else {
    ++untracked;  // the table is full
  }
  pthread_mutex_unlock(&lock);
}

static void unmade(void *p, void *site) {
  if (p == NULL || inside) return;
  const int who = self();
  pthread_mutex_lock(&lock);
  ++frees;
  uint32_t s = slot_of((uintptr_t)p);
  for (uint32_t probes = 0; block_at[s] != 0 && block_at[s] != (uintptr_t)p && probes < kSlots; ++probes) {
    s = (s + 1) & (kSlots - 1);
  }
  if (block_at[s] == (uintptr_t)p) {
    block_at[s] = kGone;
    if (maker[s] != who) {
      ++cross;
      uint32_t k = (uint32_t)(((uintptr_t)site >> 2) * 2654435761u) & (kSites - 1);
      while (site_pc[k] != 0 && site_pc[k] != (uintptr_t)site) k = (k + 1) & (kSites - 1);
      site_pc[k] = (uintptr_t)site;
      ++site_count[k];
    }
  }
  pthread_mutex_unlock(&lock);
}

// The caller of the function that freed: past free() itself and the destructor's delete.
static void *freeing_site(void) {
  void *frames[4];
  inside = 1;
  const int n = backtrace(frames, 4);
  inside = 0;
  return n > 2 ? frames[2] : NULL;
}

void *malloc(size_t n) {
  find_next();
  void *p = next_malloc(n);
  made(p);
  return p;
}

void *calloc(size_t count, size_t size) {
  // dlsym itself calls calloc before next_calloc is known: a small static arena serves it.
  static char early[4096];
  static size_t used;
  if (next_calloc == NULL) {
    void *p = early + used;
    used += (count * size + 15) & ~(size_t)15;
    return used <= sizeof early ? p : NULL;
  }
  void *p = next_calloc(count, size);
  made(p);
  return p;
}

void *realloc(void *old, size_t n) {
  find_next();
  unmade(old, __builtin_return_address(0));
  void *p = next_realloc(old, n);
  made(p);
  return p;
}

void free(void *p) {
  find_next();
  if (p != NULL && !inside) unmade(p, freeing_site());
  next_free(p);
}

static void deleted(void *p, void *site) {
  find_next();
  unmade(p, site);
  next_free(p);
}
void _ZdlPv(void *p) { deleted(p, __builtin_return_address(0)); }
void _ZdlPvm(void *p, size_t n) { (void)n; deleted(p, __builtin_return_address(0)); }
void _ZdaPv(void *p) { deleted(p, __builtin_return_address(0)); }
void _ZdaPvm(void *p, size_t n) { (void)n; deleted(p, __builtin_return_address(0)); }

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "cross_thread_frees: %ld allocations, %ld frees, %ld freed by another thread than their maker's%s\n",
          allocations, frees, cross, untracked ? " (the table overflowed: some blocks were not followed)" : "");
  for (int shown = 0; shown < kShown; ++shown) {
    int best = -1;
    for (int k = 0; k < kSites; ++k) {
      if (site_count[k] > 0 && (best < 0 || site_count[k] > site_count[best])) best = k;
    }
    if (best < 0) break;
    Dl_info info;
    const int known = dladdr((void *)site_pc[best], &info) && info.dli_fname != NULL;
    fprintf(stderr, "cross_thread_frees: %ld at %s+0x%lx\n", site_count[best], known ? info.dli_fname : "?",
            (unsigned long)(site_pc[best] - (known ? (uintptr_t)info.dli_fbase : 0)));
    site_count[best] = 0;
  }
}
