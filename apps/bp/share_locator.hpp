#pragma once
// Finds what bp ships beside its binary (the bundled fixtures `generate --check` compares
// against, and the live framework helpers) from any working directory. Each is tried in order:
//   1. its environment variable ($BP_FIXTURES_DIR, $BP_EXTRACT_DIR), when set and non-empty
//      (taken as given, so a wrong value shows up in errors instead of silently falling back);
//   2. <dir of the executable>/../share/bp/<fixtures|extract> (the installed layout);
//   3. the source tree the binary was built from (build_info::source_dir()).
// When none exists the last candidate is returned, so error messages name a concrete path.
#include <string>

namespace bp::cli {

[[nodiscard]] std::string fixtures_dir();
[[nodiscard]] std::string bundled_fixture(const std::string& file_name);

// Absolute path of the helper file for `framework` ("pytorch" or "jax").
[[nodiscard]] std::string helper_path(const std::string& framework);

}  // namespace bp::cli
