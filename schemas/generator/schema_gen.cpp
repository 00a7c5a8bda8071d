// schema_gen: writes or checks schemas/*.json from our own definitions
// (libcore/schema_authoring/).
//
//   schema_gen --out DIR     write every schema to DIR (atomically, one file at a time)
//   schema_gen --check DIR   exit 1 naming the first file / JSON path that differs
//
// Exit codes: 0 done / identical, 1 a difference, 2 usage or I/O error.
#include <cstdio>
#include <exception>
#include <string>

#include "common/file_system.hpp"
#include "schema_authoring/schema_files.hpp"

namespace {

int usage() {
  std::fputs("usage: schema_gen --out DIR | --check DIR\n", stderr);
  return 2;
}

int run(const std::string& mode, const std::string& dir) {
  auto& fs = common::real_file_system();
  if (mode == "--out") {
    if (auto written = schema_authoring::write_schema_files(fs, dir); !written) {
      std::fprintf(stderr, "schema_gen: %s\n", written.error().to_string().c_str());
      return 2;
    }
    return 0;
  }
  auto checked = schema_authoring::check_schema_files(fs, dir);
  if (!checked) {
    std::fprintf(stderr, "schema_gen: %s\n", checked.error().to_string().c_str());
    return 2;
  }
  if (*checked) {
    std::fprintf(stderr, "schema_gen: %s (regenerate with: schema_gen --out %s)\n", (*checked)->to_string().c_str(),
                 dir.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return usage();
  const std::string mode = argv[1];
  if (mode != "--out" && mode != "--check") return usage();
  try {
    return run(mode, argv[2]);
  } catch (const std::exception& e) {  // a bug in our own schema definitions
    std::fprintf(stderr, "schema_gen: internal error: %s\n", e.what());
    return 2;
  }
}
