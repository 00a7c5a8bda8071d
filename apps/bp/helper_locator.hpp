#pragma once
// Finds the live framework helpers bp ships (apps/bp/extract/<framework>.py in the source tree,
// share/bp/extract/ when installed) from any working directory. Tried in order:
//   1. $BP_EXTRACT_DIR, when set and non-empty (taken as given, so a wrong value shows in errors);
//   2. <dir of the executable>/../share/bp/extract (the installed layout);
//   3. the source tree's apps/bp/extract the binary was built from (BP_EXTRACT_DIR define).
#include <string>

namespace bp::cli {

// Absolute path of the helper file for `framework` ("pytorch" or "jax"); the last candidate
// when none exists, so the error names a concrete path.
[[nodiscard]] std::string helper_path(const std::string& framework);

}  // namespace bp::cli
