// build_observer_receipt from the engine's struct must write what the tree form (on to_json of the
// same struct) writes, byte for byte: with the sidecar's post-update blocks, without them (the
// engine's are taken), and with them null.
#include <doctest/doctest.h>

#include <string>

#include "importer/engine_witness.hpp"
#include "importer/observer_receipt.hpp"
#include "receipt/engine/receipt_json.hpp"
#include "sidecar_variants.hpp"

using nlohmann::ordered_json;

TEST_CASE("observer_receipt: the receipt built from the engine's struct is the tree form's, byte for byte") {
  importer::ObserverFields f;
  f.fixture = "pytorch-imported-step";
  f.source_hash = "sha256:" + std::string(64, 'a');
  f.import_timestamp = "2026-01-02T03:04:05.000Z";
  f.differential_tolerance = importer::kDefaultDifferentialTolerance;
  std::size_t from_engine = 0;
  for (const auto& [name, base] : importer_test::sidecar_variants()) {
    auto engine = importer::run_witness(base);
    REQUIRE(engine.ok());
    for (int mode = 0; mode < 3; ++mode) {
      ordered_json sidecar = base;
      for (const char* key : {"post_update_forward", "post_update_loss"}) {
        if (mode == 1) sidecar.erase(key);
        if (mode == 2) sidecar[key] = nullptr;
      }
      CAPTURE(name);
      CAPTURE(mode);
      ordered_json copy = sidecar;
      const ordered_json from_tree =
          importer::build_observer_receipt(std::move(copy), receipt::engine::to_json(*engine), f);
      const ordered_json from_struct = importer::build_observer_receipt(std::move(sidecar), *engine, f);
      CHECK(from_struct.dump() == from_tree.dump());
      if (mode > 0 && from_tree.contains("post_update_loss")) ++from_engine;
    }
  }
  CHECK(from_engine == 2 * 15);  // the engine's blocks were taken where the sidecar had none
}
