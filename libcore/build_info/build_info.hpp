#pragma once
// The suite's version and where it was built from. One version for the three tools: the
// project's (CMakeLists.txt), with "+g<commit>" appended when built from a git checkout and
// ".dirty" when tracked files had changes, e.g. "1.0.0+g0123456789ab".
#include <string_view>

namespace build_info {

[[nodiscard]] std::string_view version();

// The source tree the binary was built from: the last place a tool looks for the files it ships
// (fixtures, helpers, schemas) when it runs from the build tree instead of an install.
[[nodiscard]] std::string_view source_dir();

}  // namespace build_info
