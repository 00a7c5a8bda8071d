#pragma once
// Sidecars for the importer's tests, made from our own engine's receipts (as a framework's
// helper would write them): the receipt's step fields under a framework-trace format.
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "common/json_input.hpp"
#include "receipt/emit/general_receipt_writer.hpp"
#include "receipt/engine/generate.hpp"

namespace importer_test {

inline std::vector<nlohmann::ordered_json> builtin_receipts(std::string_view name) {
  auto receipts = receipt::engine::generate_builtin(name);
  REQUIRE(receipts.ok());
  auto bytes = receipt::emit::emit_receipts(*receipts);
  REQUIRE(bytes.ok());
  auto records = common::parse_jsonl_text(*bytes);
  REQUIRE(records.ok());
  std::vector<nlohmann::ordered_json> out;
  for (auto& r : *records) out.push_back(std::move(r.value));
  return out;
}

inline nlohmann::ordered_json to_sidecar(const nlohmann::ordered_json& receipt, std::string_view format,
                                         std::string_view framework = "pytorch") {
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  s["format"] = format;
  s["source_framework"] = {{"name", framework}, {"version", "2.5.0"}};
  for (const char* key : {"topology", "learning_rate", "numeric_policy", "bias_policy", "inputs", "targets",
                          "parameters_before", "forward", "loss", "backward", "updates", "parameters_after",
                          "post_update_forward", "post_update_loss"}) {
    if (receipt.contains(key)) s[key] = receipt[key];
  }
  return s;
}

// The softmax-ce step as a framework-trace v0.1.0 sidecar.
inline nlohmann::ordered_json softmax_sidecar() {
  return to_sidecar(builtin_receipts("softmax-ce").front(), "framework-trace.v0.1.0");
}

// The three-step XOR trace as framework-trace v0.2.0 records (with trace_id and step_index).
inline std::vector<nlohmann::ordered_json> xor_trace() {
  std::vector<nlohmann::ordered_json> out;
  std::int64_t i = 0;
  for (const auto& r : builtin_receipts("xor-multi-step")) {
    auto s = to_sidecar(r, "framework-trace.v0.2.0");
    s["trace_id"] = "0123456789abcdef0123456789abcdef";
    s["step_index"] = i++;
    out.push_back(std::move(s));
  }
  return out;
}

inline std::string jsonl(const std::vector<nlohmann::ordered_json>& docs) {
  std::string out;
  for (const auto& d : docs) out += d.dump() + "\n";
  return out;
}

}  // namespace importer_test
