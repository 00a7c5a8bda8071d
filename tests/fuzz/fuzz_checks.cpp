#include "fuzz_checks.hpp"

#include <cstdio>
#include <cstdlib>

namespace fuzz {

void broken(const char* invariant, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

void expect(bool ok, const char* invariant, const std::string& detail) {
  if (!ok) broken(invariant, detail);
}

void check_error(const common::Error& e) {
  const std::string text = e.to_string();
  expect(!e.message().empty(), "error has a message");
  expect(text.find('\n') == std::string::npos, "error is one line", text);
}

Depth refused(const common::Error& e, Depth depth) {
  check_error(e);
  return depth;
}

common::JsonInputOptions options() {
  common::JsonInputOptions o;
  o.file = "fuzz.json";
  o.max_bytes = 1 << 20;
  o.bom = common::BomPolicy::strip;
  return o;
}

}  // namespace fuzz
