// StreamImport given the stream's hash after some records (stream_file_import.cpp reads it beside
// the import): the receipts are those of an import that knew it from the start, byte for byte.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "importer/stream_import.hpp"
#include "sidecar_fixture.hpp"

using nlohmann::ordered_json;

namespace stream_import_late_hash_test {

const std::string kP = "00112233445566778899aabbccddeeff" "ffeeddccbbaa99887766554433221100";

importer::ImportOptions options() {
  importer::ImportOptions o;
  o.framework = importer::Framework::pytorch;
  o.import_timestamp = "2026-01-02T03:04:05.000Z";
  return o;
}

std::vector<std::string> lines_of(const std::string& input) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < input.size();) {
    const std::size_t nl = input.find('\n', at);
    lines.push_back(input.substr(at, nl - at));
    at = nl == std::string::npos ? input.size() : nl + 1;
  }
  return lines;
}

// The receipts (digest in place), the hash given before record `known_before` is prepared
// (records.size(): after the last one is folded).
struct Late {
  std::string bytes;
  bool held = false;               // records waited for the hash
  std::size_t prepared_again = 0;  // records whose placeholder could not be patched
};

Late imported_late(const std::string& input, std::size_t known_before) {
  Late late;
  const std::string hash = "sha256:" + common::sha256_hex(input);
  std::string out;
  importer::StreamImport stream(options(), std::nullopt, [&out](std::string_view r) { out += r; },
                                importer::SourcePlaceholder(kP));
  const auto lines = lines_of(input);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k == known_before) stream.source_hash_known(hash);
    if (k == 0) {
      REQUIRE(stream.add_line(lines[k]).ok());
    } else {
      importer::PreparedStep p = stream.prepare(std::string(lines[k]), k);
      REQUIRE(stream.fold(p).ok());
    }
    if (stream.source_hash_pending()) late.held = late.held || stream.held_bytes() > 0;
  }
  CHECK((out.empty() || !stream.source_hash_pending()));  // nothing is written before the hash
  stream.source_hash_known(hash);
  auto outcome = stream.finish();
  REQUIRE_MESSAGE(outcome.ok(), outcome.error().to_string());
  importer::patch_digests(*outcome, 0, out);
  late.bytes = std::move(out);
  late.prepared_again = stream.prepared_again();
  return late;
}

// `patchable`: every receipt written before the hash holds the placeholder where it was put.
void same_whenever_known(const std::vector<ordered_json>& records, const std::string& what, bool patchable = true) {
  const std::string input = importer_test::jsonl(records);
  auto want = importer::import_sidecar_stream(input, options());
  REQUIRE_MESSAGE(want.ok(), want.error().to_string());
  for (std::size_t k = 0; k <= records.size(); ++k) {
    INFO(what << ", hash known before record " << k);
    const Late late = imported_late(input, k);
    CHECK(late.bytes == want->bytes);
    CHECK(late.held == (k > 0));
    CHECK(late.prepared_again == (patchable ? 0 : k));
  }
}

std::vector<ordered_json> trace_of(std::size_t n) {
  const auto steps = importer_test::xor_trace();
  std::vector<ordered_json> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(steps[i % steps.size()]);
    out.back()["step_index"] = i;
  }
  return out;
}

}  // namespace stream_import_late_hash_test

namespace sil = stream_import_late_hash_test;

TEST_CASE("stream_import: receipts written before the hash was known are those written after it") {
  sil::same_whenever_known(sil::trace_of(5), "records with their trace_id");
  auto untraced = sil::trace_of(5);
  for (auto& r : untraced) {
    r.erase("trace_id");
    r.erase("step_index");  // only with a trace_id (the schema)
  }
  sil::same_whenever_known(untraced, "trace_id from the hash");
}

TEST_CASE("stream_import: a sidecar spelling the placeholder gets its receipt written again, with the hash") {
  // Every receipt holds the placeholder (the framework version) or its first half (the trace_id)
  // where it was not put, so none can be patched in place.
  auto spelled = sil::trace_of(4);
  for (auto& r : spelled) r["source_framework"]["version"] = "sha256:" + sil::kP;
  sil::same_whenever_known(spelled, "the placeholder as the version", false);
  auto half = sil::trace_of(4);
  for (auto& r : half) r["trace_id"] = sil::kP.substr(0, 32);
  sil::same_whenever_known(half, "its first half as the trace_id", false);
}
