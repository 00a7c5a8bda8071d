#include "support/suite_paths.hpp"

namespace suite_test {

const std::string& source_dir() {
  static const std::string dir = SUITE_SOURCE_DIR;
  return dir;
}

const std::string& binary_dir() {
  static const std::string dir = SUITE_BINARY_DIR;
  return dir;
}

}  // namespace suite_test
