// run_witness reads the engine input in place from the sidecar; engine_input_document assembles
// the same input as a document, which extract_general_input then reads (the path the witness took
// before). Both must give the same receipt, byte for byte, and the same refusals.
#include <doctest/doctest.h>

#include <memory>

#include "importer/engine_witness.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/reproduce/reproduce.hpp"
#include "sidecar_variants.hpp"

using nlohmann::ordered_json;

namespace {

// The witness as the document path computes it: its canonical bytes, or its error text.
std::string document_path(const ordered_json& sidecar) {
  auto doc = importer::engine_input_document(sidecar);
  if (!doc) return doc.error().message();
  auto input = receipt::reproduce::extract_general_input(*doc);
  if (!input) return input.error().to_string();
  auto in = std::make_shared<const receipt::engine::GeneralInput>(std::move(*input));
  auto r = in->batch ? receipt::engine::compute_batched_general_step(in) : receipt::engine::compute_general_step(in);
  if (!r) return r.error().to_string();
  auto line = receipt::emit::emit_receipt_line(*r);
  REQUIRE(line.ok());
  return *line;
}

std::string in_place(const ordered_json& sidecar) {
  auto r = importer::run_witness(sidecar);
  if (!r) return r.error().message();
  auto line = receipt::emit::emit_receipt_line(*r);
  REQUIRE(line.ok());
  return *line;
}

}  // namespace

TEST_CASE("engine_witness: the input read in place gives the document path's receipt, byte for byte") {
  const auto variants = importer_test::sidecar_variants();
  REQUIRE(variants.size() == 15);
  for (const auto& [name, sidecar] : variants) {
    CAPTURE(name);
    const std::string expected = document_path(sidecar);
    INFO(expected.substr(0, 300));
    REQUIRE(expected.rfind("{\"schema_version\"", 0) == 0);  // the variant runs
    CHECK(in_place(sidecar) == expected);
  }
}

TEST_CASE("engine_witness: a refused input gets the document path's message (sorted: the first key is \"aa\")") {
  ordered_json s = importer_test::softmax_sidecar();
  s["inputs"]["zz"] = 1;
  s["inputs"]["aa"] = 2;
  const std::string expected = document_path(s);
  CHECK(expected.find("/inputs/aa") != std::string::npos);
  CHECK(in_place(s) == expected);
  // A batch without per_sample is refused before the engine input is read.
  ordered_json b = importer_test::batched_sidecar();
  b.erase("per_sample");
  CHECK(in_place(b) == document_path(b));
  CHECK(in_place(b).find("missing the per_sample block") != std::string::npos);
}
