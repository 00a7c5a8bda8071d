#pragma once
// Finds what bp ships beside its binary (the bundled fixtures `generate --check` compares
// against, and the live framework helpers) from any working directory. Each is tried in order:
//   1. its environment variable ($BP_FIXTURES_DIR, $BP_EXTRACT_DIR), when set and non-empty
//      (taken as given, so a wrong value shows up in errors instead of silently falling back);
//   2. <dir of the executable>/../share/bp/<fixtures|extract> (the installed layout);
//   3. the source tree the binary was built from (build_info::source_dir()).
// When none exists the last candidate is returned, so error messages name a concrete path.
//
// A bundled file that is missing, unreadable or malformed means a broken installation, not bad
// input: exit 4, BROKEN_INSTALLATION, one line naming the file (bp(1) EXIT STATUS). verify mazur's
// fixtures and generate --check's goldens are read and reported that way.
#include <cstddef>
#include <string>

#include "cli_error.hpp"
#include "common/result.hpp"

namespace bp::cli {

[[nodiscard]] std::string fixtures_dir();
[[nodiscard]] std::string bundled_fixture(const std::string& file_name);

// A bundled file's text; the error names the path and the system's reason ("cannot open file: No
// such file or directory").
[[nodiscard]] common::Result<std::string> read_bundled_file(const std::string& path, std::size_t max_bytes);
// The one-line report of a bundled file that cannot serve: "this installation is broken: <e>", exit 4.
[[nodiscard]] CliError broken_installation(const common::Error& e);

// Absolute path of the helper file for `framework` ("pytorch" or "jax").
[[nodiscard]] std::string helper_path(const std::string& framework);

}  // namespace bp::cli
