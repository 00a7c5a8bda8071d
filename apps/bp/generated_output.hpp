#pragma once
// The last step of every `bp generate`: compare with a golden (--check), write --out
// atomically, or print to stdout; with the reference's --json results and verbose lines.
#include <string>
#include <string_view>

#include "argv_scan.hpp"

namespace bp::cli {

struct GeneratedBytes {
  std::string bytes;
  std::string label;        // "mazur", "from-config", ...
  std::string golden_path;  // compared under --check
  bool golden_bundled = false;  // bp's own golden: unreadable is a broken installation (exit 4)
};

[[nodiscard]] int deliver_generated(const Invocation& inv, const GeneratedBytes& g);

}  // namespace bp::cli
