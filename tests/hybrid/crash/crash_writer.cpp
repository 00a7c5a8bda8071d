// Writes, until it is killed, a checkpoint manifest, kBlobs persistent-cache entries and a
// trainer table under DIR, one file per step in turn, starting with file FIRST (0..4) so that
// the checker's kills land in every kind of write. Step s writes generation BASE + s.
//   crash_writer DIR FIRST BASE
#include <cstdio>
#include <string>

#include "crash_versions.hpp"
#include "hybrid/checkpoint/manifest_format.hpp"
#include "hybrid/learning/trainer_table.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: crash_writer DIR FIRST BASE\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int first = std::stoi(argv[2]);
  const std::uint64_t base = std::stoull(argv[3]);
  auto& fs = common::real_file_system();
  hybrid::PersistentHybridCache cache(dir + "/cache");
  // Tell the checker start-up is over, so its random delay lands among the writes.
  std::fputs("ready\n", stdout);
  std::fflush(stdout);
  for (std::uint64_t s = 0;; ++s) {
    const std::uint64_t g = base + s;
    const int file = static_cast<int>((first + s) % (crashtest::kBlobs + 2));
    bool ok = true;
    if (file == 0) {
      ok = hybrid::write_manifest(fs, dir + "/ckpt", crashtest::manifest_version(g)).ok();
    } else if (file <= crashtest::kBlobs) {
      const int i = file - 1;
      ok = cache.put_blob(hybrid::CacheKind::tensor, crashtest::blob_key(i), crashtest::blob_payload(g, i), g, true).ok();
    } else {
      ok = hybrid::write_trainer_table(fs, hybrid::TrainerTable{crashtest::table_version(g), {}, {}}, dir + "/learn.table").ok();
    }
    if (!ok) return 3;
  }
}
