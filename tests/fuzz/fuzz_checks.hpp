#pragma once
// What every fuzz target checks on the way: a broken invariant is one line on stderr and an
// abort (libFuzzer and fuzz_smoke both report it); errors are one line, never empty.
#include <string>

#include "common/error.hpp"
#include "common/json_input.hpp"
#include "fuzz_targets.hpp"

namespace fuzz {

[[noreturn]] void broken(const char* invariant, const std::string& detail);
void expect(bool ok, const char* invariant, const std::string& detail = {});
void check_error(const common::Error& e);
// check_error, then `depth`: how far a refused input got.
Depth refused(const common::Error& e, Depth depth);
// Small limits keep one input cheap: the suite's real limits are tested elsewhere.
[[nodiscard]] common::JsonInputOptions options();

}  // namespace fuzz
