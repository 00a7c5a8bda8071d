// Byte-for-byte re-emission of the reference package's goldens. Needs the
// reference installed: skipped in the plain unit run, run by the compat ctest
// `receipt_emit_reference_goldens` (tests/compat/schemas.cmake) with
// BP_REFERENCE_DIR=<...>/node_modules/@mcptoolshop/backprop-trace and --no-skip.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/json_input.hpp"
#include "receipt/emit/emit_receipt.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path reference_dir() {
  const char* dir = std::getenv("BP_REFERENCE_DIR");
  REQUIRE_MESSAGE(dir != nullptr, "BP_REFERENCE_DIR is not set");
  REQUIRE_MESSAGE(fs::is_directory(fs::path(dir) / "fixtures"), "no fixtures/ under BP_REFERENCE_DIR");
  return dir;
}

std::vector<fs::path> jsonl_in(const fs::path& dir, const std::string& must_contain) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".jsonl" && name.find(must_contain) != std::string::npos &&
        name.find("sidecar") == std::string::npos) {
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Parses every line, re-emits, returns the bytes.
std::string reemit(const std::string& text, const std::string& file) {
  auto records = common::parse_jsonl_text(text, {.file = file});
  REQUIRE_MESSAGE(records.ok(), (records.ok() ? "" : records.error().to_string()));
  std::vector<nlohmann::ordered_json> values;
  for (auto& r : *records) values.push_back(std::move(r.value));
  auto out = receipt::emit::emit_receipts(values);
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : file + ": " + out.error().to_string()));
  return *out;
}

void check_round_trip(const std::vector<fs::path>& files) {
  for (const auto& f : files) {
    CAPTURE(f.string());
    const std::string original = slurp(f);
    const std::string again = reemit(original, f.string());
    if (again != original) {
      std::size_t i = 0;
      while (i < again.size() && i < original.size() && again[i] == original[i]) ++i;
      const std::size_t from = i > 80 ? i - 80 : 0;
      MESSAGE("first difference at byte " << i << "\n  reference: " << original.substr(from, 160)
                                          << "\n  ours:      " << again.substr(from, 160));
    }
    const bool same = again == original;
    CHECK_MESSAGE(same, "re-emission differs from the reference bytes");
  }
}

}  // namespace

TEST_CASE("emit: reference goldens re-emit byte for byte" * doctest::skip()) {
  const fs::path ref = reference_dir();
  std::vector<fs::path> files = jsonl_in(ref / "fixtures", "");
  for (const auto& f : jsonl_in(ref / "fixtures" / "external", ".golden.")) files.push_back(f);
  REQUIRE(files.size() >= 20);
  MESSAGE("re-emitting " << files.size() << " reference receipt files");
  check_round_trip(files);
}

// Differential: BP_REFERENCE_EMIT_DIR holds what the reference emitter made of each
// file (tests/compat/reference_emit.mjs): <name>.emitted bytes or <name>.error.
// Where it emitted we must emit the same bytes; where it refused we must refuse.
TEST_CASE("emit: same bytes or same refusal as the reference emitter" * doctest::skip()) {
  const fs::path ref = reference_dir();
  const char* emit_dir_env = std::getenv("BP_REFERENCE_EMIT_DIR");
  REQUIRE_MESSAGE(emit_dir_env != nullptr, "BP_REFERENCE_EMIT_DIR is not set");
  const fs::path emit_dir = emit_dir_env;
  std::vector<fs::path> files;
  for (const char* sub : {"fixtures", "fixtures/external", "fixtures/bad"}) {
    for (const auto& e : fs::directory_iterator(ref / sub)) {
      if (e.path().extension() == ".jsonl") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 100);
  std::size_t same_bytes = 0, same_refusal = 0;
  for (const auto& f : files) {
    CAPTURE(f.string());
    const std::string name = f.filename().string();
    const bool ref_emitted = fs::exists(emit_dir / (name + ".emitted"));
    REQUIRE_MESSAGE((ref_emitted || fs::exists(emit_dir / (name + ".error"))), "no reference result for the file");
    auto records = common::parse_jsonl_text(slurp(f), {.file = f.string()});
    common::Result<std::string> ours = common::Error::malformed("not parsed");
    if (records) {
      std::vector<nlohmann::ordered_json> values;
      for (auto& r : *records) values.push_back(std::move(r.value));
      ours = receipt::emit::emit_receipts(values);
    }
    if (ref_emitted) {
      REQUIRE_MESSAGE(ours.ok(), (ours.ok() ? "" : ours.error().to_string()));
      const bool same = *ours == slurp(emit_dir / (name + ".emitted"));
      CHECK_MESSAGE(same, "bytes differ from the reference emitter's");
      same_bytes += same ? 1 : 0;
    } else {
      CHECK_MESSAGE(!ours.ok(), "the reference emitter refused this file but we emitted it");
      same_refusal += ours.ok() ? 0 : 1;
    }
  }
  MESSAGE(same_bytes << " files emitted identically, " << same_refusal << " refused by both, of " << files.size());
}
