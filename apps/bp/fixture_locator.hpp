#pragma once
// Finds bp's bundled fixtures (the goldens `generate --check` compares against) from any
// working directory. Tried in order:
//   1. $BP_FIXTURES_DIR, when set and non-empty (taken as given, never second-guessed);
//   2. <dir of the executable>/../share/bp/fixtures (the installed layout);
//   3. the source tree's fixtures/ the binary was built from (BP_FIXTURES_DIR define).
#include <string>

namespace bp::cli {

// The first candidate directory that exists, or the last candidate when none does
// (so error messages name a concrete path).
[[nodiscard]] std::string fixtures_dir();

[[nodiscard]] std::string bundled_fixture(const std::string& file_name);

}  // namespace bp::cli
