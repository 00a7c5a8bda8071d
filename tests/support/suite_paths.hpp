#pragma once
// Where the tests find the source tree (fixtures, data files) and the build tree (the reference
// from npm, built programs). Defined in suite_paths.cpp, the one test file compiled with the
// paths, so that every other test file compiles to the same bytes in any clone (ccache hits).
#include <string>

namespace suite_test {

[[nodiscard]] const std::string& source_dir();
[[nodiscard]] const std::string& binary_dir();

}  // namespace suite_test
