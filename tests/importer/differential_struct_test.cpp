// compare_with_engine on the engine's struct must report what the tree form (on to_json of the
// same struct) reports: the same paths in the same order, the same numbers, the same `extended`;
// and so must it with the sidecar read in place from its document (the multi-step import).
// Both sides are mutated so that every kind of check fires: the engine's numbers perturbed, and the
// sidecar's nodes changed one kind at a time (a number moved, a string renamed, an object missing
// a key, an array reversed, a value turned null).
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "differential_tree.hpp"
#include "importer/differential.hpp"
#include "importer/engine_witness.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "sidecar_variants.hpp"

using nlohmann::ordered_json;

namespace {

// Every field of each disagreement, numbers in hex so that a one-ulp difference shows.
std::string render(const std::vector<importer::Disagreement>& ds) {
  std::string out;
  char buf[160];
  for (const auto& d : ds) {
    std::snprintf(buf, sizeof buf, " %a %a %a %a %d\n", d.delta, d.applied_tolerance, d.stored, d.recomputed,
                  d.extended ? 1 : 0);
    out += d.field_path + buf;
  }
  return out;
}

// Perturbs every `period`-th entry of a vector of the engine's numbers (from `phase` on).
void perturb(std::vector<double>& v, std::size_t period, std::size_t phase) {
  for (std::size_t i = phase % period; i < v.size(); i += period) v[i] = v[i] * 1.01 + 1e-3;
}

void perturb_engine(receipt::engine::GeneralReceipt& r, std::size_t phase) {
  constexpr std::size_t p = 3;
  auto& c = r.core;
  for (auto* v : {&c.fwd.net_h, &c.fwd.out_h, &c.fwd.net_o, &c.fwd.out_o, &c.loss_o, &c.tmo, &c.ad_o, &c.sig_o,
                  &c.dual_delta_minus_p, &c.dual_term, &c.dual_sum, &c.contrib, &c.bsum_h, &c.ad_h, &c.sig_h,
                  &r.parameters_after, &r.post_forward.net_h, &r.post_forward.out_o, &r.post_loss_per_output,
                  &r.reduced_loss_per_output}) {
    perturb(*v, p, phase++);
  }
  if (phase % 2 == 0) c.loss_total += 1e-2;
  if (phase % 2 == 1) r.post_loss_total -= 1e-2;
  r.reduced_loss_total *= 1.5;
  for (std::size_t i = phase % p; i < r.updates.size(); i += p) {
    auto& u = r.updates[i];
    u.weight_before += 1e-2;
    u.gradient *= 1.1;
    u.update -= 1e-3;
    u.weight_after += 1e-3;
    u.state_before.m += 1e-2;
    u.state_after.v += 1e-2;
    u.state_after.buffer -= 1e-2;
  }
  for (std::size_t i = phase % p; i < r.samples.size(); i += p) {
    perturb(r.samples[i].forward.out_h, 2, phase);
    perturb(r.samples[i].loss_per_output, 2, phase + 1);
    r.samples[i].loss_total += 0.25;
  }
}

}  // namespace

TEST_CASE("differential: the struct form reports what the tree form reports, mutation by mutation") {
  const reconcile::Tolerance tolerance = importer::kDefaultDifferentialTolerance;
  std::size_t cases = 0, disagreements = 0, extended = 0;
  for (const auto& [name, base] : importer_test::sidecar_variants()) {
    for (std::size_t phase = 0; phase < 12; ++phase) {
      // The engine runs on the honest sidecar; its claims are mutated afterwards.
      auto engine = importer::run_witness(base);
      REQUIRE(engine.ok());
      ordered_json sidecar = base;
      if (phase > 0) {
        std::size_t n = 0;
        importer_test::mutate(sidecar, 11 + phase % 3, phase % (11 + phase % 3), n);
      }
      if (phase % 2 == 1) perturb_engine(*engine, phase);
      CAPTURE(name);
      CAPTURE(phase);
      const auto from_tree = importer::oracle::compare_with_engine(receipt::engine::to_json(*engine), sidecar, tolerance);
      const auto from_struct = importer::compare_with_engine(*engine, sidecar, tolerance);
      CHECK(render(from_struct) == render(from_tree));
      // The multi-step import reads the sidecar in place from its document: the same report.
      auto doc = common::parse_json_document(sidecar.dump());
      REQUIRE(doc.ok());
      const reconcile::ReadReceipt read(std::move(*doc));
      CHECK(render(importer::compare_with_engine(*engine, read.root(), tolerance)) == render(from_tree));
      // A place both the reference's checks and bp's own walk reach is reported once, by the
      // first (both forms share the sink that remembers what was compared).
      std::set<std::string> paths;
      for (const auto& d : from_struct) {
        CAPTURE(d.field_path);
        CHECK(paths.insert(d.field_path).second);
      }
      ++cases;
      disagreements += from_tree.size();
      for (const auto& d : from_tree) extended += d.extended ? 1 : 0;
    }
  }
  // The mutations did reach the comparison: many runs, many disagreements of both kinds.
  CHECK(cases == 15 * 12);
  CHECK(disagreements > 1000);
  CHECK(extended > 500);
  CHECK(extended < disagreements);
}

TEST_CASE("differential: a factor whose `from` names another place, however close, is not compared") {
  const reconcile::Tolerance tolerance = importer::kDefaultDifferentialTolerance;
  std::size_t renamed = 0;
  for (const auto& [name, base] : importer_test::sidecar_variants()) {
    auto engine = importer::run_witness(base);
    REQUIRE(engine.ok());
    perturb_engine(*engine, 1);  // the engine's numbers disagree: a factor compared is reported
    for (int at = 0; at < 3; ++at) {  // the spelling changed at its start, middle or end, same length
      ordered_json sidecar = base;
      for (auto& u : sidecar["updates"]) {
        if (!u.contains("optimizer") || !u["optimizer"].contains("factors")) continue;
        for (auto& f : u["optimizer"]["factors"]) {
          if (!f.contains("from") || !f["from"].is_string()) continue;
          std::string from = f["from"].get<std::string>();
          const std::size_t i = at == 0 ? 0 : at == 1 ? from.size() / 2 : from.size() - 1;
          from[i] = from[i] == 'q' ? 'r' : 'q';
          f["from"] = from;
          ++renamed;
        }
      }
      CAPTURE(name);
      CAPTURE(at);
      const auto from_tree = importer::oracle::compare_with_engine(receipt::engine::to_json(*engine), sidecar, tolerance);
      CHECK(render(importer::compare_with_engine(*engine, sidecar, tolerance)) == render(from_tree));
      auto doc = common::parse_json_document(sidecar.dump());
      REQUIRE(doc.ok());
      const reconcile::ReadReceipt read(std::move(*doc));
      CHECK(render(importer::compare_with_engine(*engine, read.root(), tolerance)) == render(from_tree));
    }
  }
  CHECK(renamed > 100);
}
