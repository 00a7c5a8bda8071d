#pragma once
// GlobalHardwareSnapshot <-> JSON, the form `atenia profile --json` prints and
// `atenia place --snapshot F` reads back (strict: unknown keys and wrong types are errors).
#include <string>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "hybrid/profiler/hardware_types.hpp"

namespace atenia::cli {

[[nodiscard]] nlohmann::ordered_json snapshot_to_json(const hybrid::GlobalHardwareSnapshot& s);
[[nodiscard]] common::Result<hybrid::GlobalHardwareSnapshot> read_snapshot(const std::string& path);

}  // namespace atenia::cli
