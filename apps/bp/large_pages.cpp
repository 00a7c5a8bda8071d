// bp asks its allocator (mimalloc, where bp is linked with it) for 2 MiB transparent huge pages
// when it is given an input file of at least 1 MiB, unless MIMALLOC_LARGE_OS_PAGES says
// otherwise. A receipt's tree is tens of MB of small blocks, and on a VM each first touch of a
// 4 KiB page costs about 3 us:
//   - `bp verify general` on a 6 MB receipt: 9,800 page faults and 78-99 ms of CPU; with huge
//     pages 405 faults and 60-63 ms (3.5 MB more peak memory).
//   - `bp import pytorch multi`: 1 MB of sidecars 27.0 -> 24.5 ms, 4 MB 86.4 -> 78.7 ms.
//   - Small inputs lose: each huge page is zeroed whole. The iris receipt took 3.8-4.0 ms, with
//     huge pages 4.5-4.9; 170 KB of sidecars 9.1 ms against 9.9. Hence the threshold.
// Without mimalloc this file is empty.
#include <sys/stat.h>

#include <cstring>

#if SUITE_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

namespace bp::cli {
namespace {

#if SUITE_HAVE_MIMALLOC
constexpr off_t kLargeInputBytes = off_t{1} << 20;

bool large_file(const struct stat& st) { return S_ISREG(st.st_mode) && st.st_size >= kLargeInputBytes; }

// Runs from the executable's .preinit_array: before any shared library's constructor, so before
// mimalloc reads its options and maps its first segment (set from main, the option reached only
// the segments mapped after it: 7,900 faults instead of 405). The loader passes argv and the
// environment. Any argument naming a regular file of 1 MiB or more counts, as does standard
// input redirected from one; what the words mean is left to the command line's own parser.
void large_pages_for_large_inputs(int argc, char** argv, char** envp) {
  static constexpr char kName[] = "MIMALLOC_LARGE_OS_PAGES=";
  for (char** e = envp; e && *e; ++e) {
    if (std::strncmp(*e, kName, sizeof kName - 1) == 0) return;  // the user's choice
  }
  struct stat st {};
  bool large = fstat(0, &st) == 0 && large_file(st);
  for (int i = 1; i < argc && !large; ++i) large = stat(argv[i], &st) == 0 && large_file(st);
  if (large) mi_option_set(mi_option_large_os_pages, 1);
}
[[gnu::used, gnu::section(".preinit_array")]] void (*const kPreinit)(int, char**, char**) =
    large_pages_for_large_inputs;
#endif

}  // namespace
}  // namespace bp::cli
