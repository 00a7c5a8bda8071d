// Differential test of the runtime formatter against the reference's, on the
// doubles tests/compat/reference_number_format.mjs wrote (with the reference's
// answers) to $BP_REFERENCE_NUMBER_FILE. Skipped in the plain unit run; the compat
// ctest `number_format_reference_differential` runs it with --no-skip.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "common/number_format.hpp"

TEST_CASE("number_format: reference differential on 100k doubles" * doctest::skip()) {
  const char* path = std::getenv("BP_REFERENCE_NUMBER_FILE");
  REQUIRE_MESSAGE(path != nullptr, "BP_REFERENCE_NUMBER_FILE is not set");
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::string line;
  std::size_t total = 0, errors = 0, mismatches = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string hex, precise, expected;
    fields >> hex >> precise >> expected;
    REQUIRE(!expected.empty());
    const double v = std::bit_cast<double>(static_cast<std::uint64_t>(std::stoull(hex, nullptr, 16)));
    ++total;
    const std::string p17 = common::to_precision_17(v);
    const auto got = common::format_receipt_number(v);
    std::string ours;
    if (got.ok()) {
      ours = *got;
    } else {
      ++errors;
      ours = common::policy_error_kind(got.error()) == common::PolicyErrorKind::plain_decimal_out_of_scope
                 ? "!PLAIN_DECIMAL_OUT_OF_SCOPE"
                 : "!" + got.error().message();
    }
    if (ours != expected || p17 != precise) {
      if (++mismatches <= 10) {
        FAIL_CHECK("value " << hex << ": reference " << precise << " -> " << expected << ", ours " << p17 << " -> "
                            << ours);
      }
    }
  }
  MESSAGE(total << " doubles compared, " << errors << " out of range in both, " << mismatches << " mismatches");
  CHECK(total >= 100000);
  CHECK(mismatches == 0);
}
