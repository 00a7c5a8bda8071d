#include "importer/witnessed_step.hpp"

#include "common/json_input.hpp"
#include "common/number_format.hpp"
#include "importer/engine_witness.hpp"

namespace importer::detail {

using nlohmann::ordered_json;

common::Result<Witnessed> witness(const ordered_json& sidecar, reconcile::Tolerance tolerance,
                                  std::string_view topology_bytes) {
  auto engine = run_witness(sidecar, topology_bytes);
  if (!engine) return engine.error();
  Witnessed w{std::move(*engine), {}};
  w.outcome.disagreements = compare_with_engine(w.engine, sidecar, tolerance);
  w.outcome.passed = w.outcome.disagreements.empty();
  return w;
}

common::Result<Witnessed> witness(const reconcile::ReadReceipt& sidecar, reconcile::Tolerance tolerance,
                                  std::string_view topology_bytes) {
  auto engine = run_witness(sidecar, topology_bytes);
  if (!engine) return engine.error();
  Witnessed w{std::move(*engine), {}};
  w.outcome.disagreements = compare_with_engine(w.engine, sidecar.root(), tolerance);
  w.outcome.passed = w.outcome.disagreements.empty();
  return w;
}

std::optional<std::string> unwritable_number_path(const ordered_json& j, const std::string& path) {
  if (j.is_number()) {
    if (common::format_receipt_number(j.get<double>())) return std::nullopt;
    return path.empty() ? std::string("/") : path;
  }
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (auto p = unwritable_number_path(it.value(), path + "/" + common::json_pointer_token(it.key()))) return p;
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto p = unwritable_number_path(j[i], path + "/" + std::to_string(i))) return p;
    }
  }
  return std::nullopt;
}

std::string emission_failure(const common::Error& e, const ordered_json& receipt, const std::string& where_prefix) {
  auto at = unwritable_number_path(receipt, "");
  return at ? e.message() + " (receipt field " + where_prefix + *at + ")" : e.message();
}

}  // namespace importer::detail
