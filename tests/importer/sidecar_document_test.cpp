// The multi-step import reads each sidecar in place from its document (reconcile::ReadReceipt) and
// writes the receipt composed from it (importer::ComposedReceipt): every step must give what the
// sidecar's tree gives, which the single-step import and the tests' oracles read. The same
// checks' verdicts and messages, the same facts, the same engine receipt or refusal, the same
// receipt bytes; on every sidecar variant, honest and mutated node by node.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "common/json_document_reader.hpp"
#include "importer/engine_witness.hpp"
#include "importer/observer_receipt.hpp"
#include "importer/sidecar_checks.hpp"
#include "importer/stream_facts.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_line.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "sidecar_variants.hpp"

using nlohmann::ordered_json;

namespace sidecar_document_test {

// The sidecar as the multi-step import reads it: its text parsed into a document.
std::unique_ptr<reconcile::ReadReceipt> read_in_place(const ordered_json& sidecar) {
  auto doc = common::parse_json_document(sidecar.dump());
  REQUIRE(doc.ok());
  return std::make_unique<reconcile::ReadReceipt>(std::move(*doc));
}

std::string verdict(const common::Status& s) { return s ? std::string("ok") : s.error().message(); }

// The engine's receipt as its line, or the refusal's message. A mutation can leave a sidecar that
// its schema would have refused before the engine sees it (an optimizer named null): the tree
// form may throw on it, and the document's must then throw the same.
template <class Run>
std::string outcome(Run&& run) {
  try {
    const common::Result<receipt::engine::GeneralReceipt> r = run();
    if (!r) return "refused: " + r.error().to_string();
    auto line = receipt::emit::emit_receipt_line(*r);
    return line ? *line : "unwritable: " + line.error().message();
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
}

// The variants, and each mutated at every 9th .. 44th node (most then refuse to re-run).
template <class Fn>
void for_each_sidecar(Fn&& fn) {
  for (const auto& [name, base] : importer_test::sidecar_variants()) {
    for (std::size_t phase = 0; phase < 9; ++phase) {
      ordered_json sidecar = base;
      const std::size_t period = 4 + 5 * phase;
      std::size_t n = 0;
      if (phase > 0) importer_test::mutate(sidecar, period, phase % period, n);
      CAPTURE(name);
      CAPTURE(phase);
      fn(sidecar, phase);
    }
  }
}

}  // namespace sidecar_document_test

TEST_CASE("sidecar document: the checks and facts read in place give the tree's verdicts") {
  std::size_t refused = 0, cases = 0;
  sidecar_document_test::for_each_sidecar([&](ordered_json sidecar, std::size_t phase) {
    // Cross-reference failures of both kinds, and a parameter_order with a non-id.
    if (phase == 3 && sidecar.contains("parameters_after") && sidecar["parameters_after"].is_object()) {
      sidecar["parameters_after"]["not_declared"] = 1.5;
    }
    if (phase == 5 && sidecar.contains("topology") && sidecar["topology"].contains("parameter_order")) {
      sidecar["topology"]["parameter_order"].push_back(7);
      sidecar["topology"]["parameter_order"].push_back("w_missing");
    }
    if (phase == 6) sidecar["parameters_after"] = "none";
    const auto read = sidecar_document_test::read_in_place(sidecar);
    const auto tree_caps = sidecar_document_test::verdict(importer::check_collection_caps(sidecar, "L"));
    CHECK(sidecar_document_test::verdict(importer::check_collection_caps(read->root(), "L")) == tree_caps);
    const auto tree_refs = sidecar_document_test::verdict(importer::check_cross_references(sidecar, "L"));
    CHECK(sidecar_document_test::verdict(importer::check_cross_references(read->root(), "L")) == tree_refs);
    refused += tree_refs != "ok";
    const ordered_json* sf = sidecar.is_object() && sidecar.contains("source_framework") ? &sidecar["source_framework"] : nullptr;
    const bool facts_readable = sf && sf->is_object() && sf->contains("name") && (*sf)["name"].is_string() &&
                                sf->contains("version") && (*sf)["version"].is_string() &&
                                (!sidecar.contains("trace_id") || sidecar["trace_id"].is_string());
    if (facts_readable) {  // what the schema guarantees before the facts are read
      const auto a = importer::StepFacts::of(sidecar, 3);
      const auto b = importer::StepFacts::of(read->root(), 3);
      CHECK(a.name == b.name);
      CHECK(a.version == b.version);
      CHECK(a.trace_id == b.trace_id);
      CHECK(a.has_step == b.has_step);
      CHECK(a.step_in_place == b.step_in_place);
      CHECK(a.step_text == b.step_text);
    }
    ++cases;
  });
  CHECK(cases == 15 * 9);
  CHECK(refused > 20);  // the cross-reference refusals were reached
}

TEST_CASE("sidecar document: the engine re-runs from the document as from the tree, refusals included") {
  std::size_t ran = 0, refused = 0;
  sidecar_document_test::for_each_sidecar([&](const ordered_json& sidecar, std::size_t) {
    const auto read = sidecar_document_test::read_in_place(sidecar);
    const std::string from_tree = sidecar_document_test::outcome([&] { return importer::run_witness(sidecar); });
    CHECK(sidecar_document_test::outcome([&] { return importer::run_witness(*read); }) == from_tree);
    // And with the topology's bytes named (the stream's repeated-topology path).
    const std::string span(read->member_span("topology").value_or(""));
    CHECK(sidecar_document_test::outcome([&] { return importer::run_witness(*read, span); }) == from_tree);
    (from_tree.rfind("refused", 0) == 0 ? refused : ran) += 1;
  });
  CHECK(ran >= 15);  // every honest variant, and some mutated ones
  CHECK(refused > 60);
}

TEST_CASE("sidecar document: the composed receipt writes the tree receipt's bytes") {
  importer::ObserverFields f;
  f.framework = importer::Framework::pytorch;
  f.multi = true;
  f.fixture = "pytorch-imported-multi-step-step-3";
  f.source_hash = "sha256:" + std::string(64, 'b');
  f.import_timestamp = "2026-01-02T03:04:05.000Z";
  f.differential_tolerance = importer::kDefaultDifferentialTolerance;
  f.trace_id = "0123456789abcdef0123456789abcdef";
  f.step_index = 3;
  std::size_t written = 0, unwritable = 0;
  for (const auto& [name, base] : importer_test::sidecar_variants()) {
    // The engine runs on the honest sidecar; the receipt is composed with a mutated one, so that
    // what it carries of the sidecar's (and its refusals) varies as much as the sidecar can.
    auto engine = importer::run_witness(base);
    REQUIRE(engine.ok());
    for (std::size_t phase = 0; phase < 12; ++phase) {
      ordered_json sidecar = base;
      const std::size_t period = 4 + 5 * phase;
      std::size_t n = 0;
      if (phase > 0 && phase < 9) importer_test::mutate(sidecar, period, phase % period, n);
      // Post-update blocks the sidecar has, lacks, or has as null; a missing policy or two.
      for (const char* key : {"post_update_forward", "post_update_loss"}) {
        if (phase % 3 == 1) sidecar.erase(key);
        if (phase % 3 == 2) sidecar[key] = nullptr;
      }
      if (phase == 9) sidecar.erase("bias_policy");
      if (phase == 10) sidecar.erase("numeric_policy");
      if (phase == 11) sidecar.erase("optimizer");
      f.differential_passed = phase % 2 == 0;
      CAPTURE(name);
      CAPTURE(phase);
      const auto read = sidecar_document_test::read_in_place(sidecar);
      std::optional<importer::ComposedReceipt> composed;
      ordered_json tree;
      try {
        tree = importer::build_observer_receipt(ordered_json(sidecar), *engine, f);
      } catch (const std::exception&) {
        continue;  // a sidecar its schema refuses before any receipt is built (source_framework gone)
      }
      composed.emplace(*read, *engine, f);
      for (int digest = 0; digest < 2; ++digest) {  // with the digest field's placeholder, and without
        if (digest == 0) {
          tree["attestor"]["bundle_root_digest"] = "sha256:" + std::string(64, '0');
          composed->own()["attestor"]["bundle_root_digest"] = "sha256:" + std::string(64, '0');
        } else {
          tree["attestor"].erase("bundle_root_digest");
          composed->own()["attestor"].erase("bundle_root_digest");
        }
        const auto from_tree = receipt::emit::emit_receipt_line(tree);
        const auto from_document = receipt::emit::emit_general_receipt_line(composed->root());
        REQUIRE(from_tree.ok() == from_document.ok());
        if (from_tree) {
          CHECK(*from_document == *from_tree);
          ++written;
        } else {
          CHECK(from_document.error().to_string() == from_tree.error().to_string());
          ++unwritable;
        }
        // The receipt as a tree (where an unwritable number's path is looked for) is the tree form's.
        CHECK(reconcile::to_tree(composed->root()).dump() == tree.dump());
      }
    }
  }
  CHECK(written > 100);
  CHECK(unwritable > 50);
}
