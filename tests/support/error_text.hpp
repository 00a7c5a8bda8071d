#pragma once
// A whole common::Error as one string, "<kind>: <to_string()>", so a test compares kind, location
// and message in one CHECK and doctest prints both sides when they differ.
#include <string>

#include "common/error.hpp"

namespace testsupport {

inline std::string error_text(const common::Error& e) {
  return std::string(common::to_string(e.code())) + ": " + e.to_string();
}

}  // namespace testsupport
