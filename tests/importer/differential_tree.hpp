#pragma once
// The importer's comparison over the engine's to_json() document, as bp ran it before the struct
// form (libcore/importer/differential_struct.cpp) replaced it: kept here as that form's oracle.
#include <vector>

#include <nlohmann/json.hpp>

#include "importer/differential.hpp"

namespace importer::oracle {

[[nodiscard]] std::vector<Disagreement> compare_with_engine(const nlohmann::ordered_json& engine,
                                                            const nlohmann::ordered_json& sidecar,
                                                            reconcile::Tolerance tolerance);

}  // namespace importer::oracle
