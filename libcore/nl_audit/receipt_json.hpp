#pragma once
// The JSON pieces the receipt writer and reader share.
#include <nlohmann/json.hpp>

#include "nl/adamw.hpp"
#include "nl/mag_config.hpp"

namespace nl_audit {

[[nodiscard]] nlohmann::ordered_json optimizer_json(const nl::AdamWConfig& o);
[[nodiscard]] nlohmann::ordered_json model_json(const nl::MagConfig& cfg, const nl::AdamWConfig& opt);  // without sha256

}  // namespace nl_audit
