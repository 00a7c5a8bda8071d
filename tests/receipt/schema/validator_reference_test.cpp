// Differential test of our validator and schemas against python jsonschema on the
// reference's schemas: $BP_SCHEMA_VERDICTS (written by tests/compat/schema_crosscheck.py)
// holds documents with the reference verdict. Skipped in the plain unit run; the
// compat ctest `schemas_validator_differential` runs it with --no-skip.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"

TEST_CASE("validator: same verdicts as the reference schemas" * doctest::skip()) {
  const char* path = std::getenv("BP_SCHEMA_VERDICTS");
  REQUIRE_MESSAGE(path != nullptr, "BP_SCHEMA_VERDICTS is not set");
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::string line;
  std::size_t total = 0, valid = 0, mismatches = 0;
  while (std::getline(in, line)) {
    const auto row = nlohmann::ordered_json::parse(line);
    const auto* schema = schema_registry::find_schema(row["schema"].get<std::string>());
    REQUIRE(schema != nullptr);
    const bool expected = row["valid"].get<bool>();
    const auto errors = schema_registry::validate(*schema, row["doc"]);
    ++total;
    valid += expected ? 1 : 0;
    if (errors.empty() != expected && ++mismatches <= 10) {
      FAIL_CHECK(row["label"].get<std::string>() << " [" << row["schema"].get<std::string>() << "]: reference "
                                                 << (expected ? "valid" : "invalid") << ", ours "
                                                 << (errors.empty() ? "valid" : errors.front().to_string()));
    }
  }
  MESSAGE(total << " documents (" << valid << " valid), " << mismatches << " verdict mismatches");
  CHECK(total > 500);
  CHECK(mismatches == 0);
}
