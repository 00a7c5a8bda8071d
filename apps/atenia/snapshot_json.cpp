// Reading a snapshot back (strict); writing one is snapshot_to_json.cpp.
#include "snapshot_json.hpp"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace atenia::cli {

namespace {

std::optional<hybrid::BackendKind> parse_backend(const std::string& s) {
  using hybrid::BackendKind;
  for (BackendKind k : {BackendKind::cpu, BackendKind::cuda, BackendKind::rocm, BackendKind::metal, BackendKind::one_api,
                        BackendKind::vulkan, BackendKind::unknown}) {
    if (s == hybrid::to_string(k)) return k;
  }
  return std::nullopt;
}

common::Status opt_u64(const Fields& f, const char* key, std::optional<std::uint64_t>& out) {
  if (!f.has(key)) return {};
  auto n = f.unsigned_int(key);
  if (!n) return n.error();
  out = *n;
  return {};
}

// A snapshot claiming more free space than the tier holds is broken, not room (exit 2).
common::Status free_within_total(const Fields& f, const char* free_key, std::uint64_t free, const char* total_key,
                                 std::uint64_t total) {
  if (free <= total) return {};
  return f.error(free_key, std::to_string(free) + " is more than " + total_key + " (" + std::to_string(total) + ")");
}

// A measured rate or latency, range-checked (out of domain is exit 3): a rate lies in
// [kMinRate, max] of its unit, so no modelled duration can overflow to infinity; a latency or
// a score in [0, max]. The upper bound keeps a mistyped exponent from modelling every task as
// taking no time.
constexpr double kMinRate = 0.001;

common::Status opt_measure(const Fields& f, const char* key, std::optional<float>& out, bool is_rate, double max,
                           const char* unit) {
  if (!f.has(key)) return {};
  auto v = f.number(key);
  if (!v) return v.error();
  const double lo = is_rate ? kMinRate : 0.0;
  if (!std::isfinite(*v) || *v < lo || *v > max) {
    return common::Error::invalid_argument(fmt::format("expected a number in [{}, {}] ({}), got {}", lo, max, unit, *v),
                                           common::Location{f.file, 0, f.pointer(key)});
  }
  out = static_cast<float>(*v);
  return {};
}

constexpr double kMaxGbS = 1e6;      // 1 PB/s
constexpr double kMaxMbS = 1e9;      // 1 PB/s
constexpr double kMaxGflops = 1e9;   // 1 EFLOP/s
constexpr double kMaxLatency = 1e9;  // ms or us

}  // namespace

common::Result<hybrid::GlobalHardwareSnapshot> read_snapshot(const std::string& path) {
  auto doc = read_json_input(path);
  if (!doc) return doc.error();
  // Nulls mean "unknown": drop them so the typed readers below only see values.
  std::function<void(nlohmann::ordered_json&)> drop_nulls = [&](nlohmann::ordered_json& j) {
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end();) {
      if (it->is_null()) it = j.erase(it);
      else {
        if (it->is_object()) drop_nulls(*it);
        if (it->is_array()) for (auto& e : *it) drop_nulls(e);
        ++it;
      }
    }
  };
  nlohmann::ordered_json j = *doc;
  drop_nulls(j);
  hybrid::GlobalHardwareSnapshot s;
  Fields top(j, input_name(path), 0, "");
  if (auto st = top.only({"timestamp_epoch_ms", "cpu", "gpus", "ram", "ssd", "reliability_by_device", "pressure"}); !st) {
    return st.error();
  }
  if (top.has("timestamp_epoch_ms")) {
    auto t = top.unsigned_int("timestamp_epoch_ms");
    if (!t) return t.error();
    s.timestamp_epoch_ms = *t;
  }
  if (top.has("cpu")) {
    Fields f(j["cpu"], input_name(path), 0, "/cpu");
    if (auto st = f.only({"physical_cores", "logical_cores", "simd", "gflops_est", "mem_gb_s_est"}); !st) return st.error();
    for (auto [k, dst] : {std::pair{"physical_cores", &s.cpu.physical_cores}, std::pair{"logical_cores", &s.cpu.logical_cores}}) {
      if (!f.has(k)) continue;
      auto v = f.unsigned_int(k);
      if (!v) return v.error();
      *dst = static_cast<std::uint32_t>(*v);
    }
    if (auto st = opt_measure(f, "gflops_est", s.cpu.gflops_est, true, kMaxGflops, "GFLOP/s"); !st) return st.error();
    if (auto st = opt_measure(f, "mem_gb_s_est", s.cpu.mem_gb_s_est, true, kMaxGbS, "GB/s"); !st) return st.error();
  }
  if (top.has("gpus")) {
    auto arr = top.array("gpus");
    if (!arr) return arr.error();
    for (std::size_t i = 0; i < (*arr)->size(); ++i) {
      Fields f(j["gpus"][i], input_name(path), 0, "/gpus/" + std::to_string(i));
      if (auto st = f.only({"id", "backend", "vram_total_bytes", "vram_free_bytes", "bandwidth_gbps_est", "compute_score_est",
                            "gflops_est", "h2d_gb_s_est", "d2h_gb_s_est", "launch_us_est"});
          !st) {
        return st.error();
      }
      hybrid::GpuCaps g;
      auto id = f.string("id");
      if (!id) return id.error();
      g.id = *id;
      if (f.has("backend")) {
        auto b = f.string("backend");
        if (!b) return b.error();
        auto k = parse_backend(*b);
        if (!k) return f.error("backend", "unknown backend \"" + common::excerpt(*b) +
                                 "\"; expected cpu, cuda, rocm, metal, oneapi, vulkan or unknown");
        g.backend = *k;
      }
      for (auto [k, dst] : {std::pair{"vram_total_bytes", &g.vram_total_bytes}, std::pair{"vram_free_bytes", &g.vram_free_bytes}}) {
        auto v = f.unsigned_int(k);
        if (!v) return v.error();
        *dst = *v;
      }
      if (auto st = free_within_total(f, "vram_free_bytes", g.vram_free_bytes, "vram_total_bytes", g.vram_total_bytes);
          !st) {
        return st.error();
      }
      for (auto [k, dst] : {std::pair{"bandwidth_gbps_est", &g.bandwidth_gbps_est}, std::pair{"h2d_gb_s_est", &g.h2d_gb_s_est},
                            std::pair{"d2h_gb_s_est", &g.d2h_gb_s_est}}) {
        if (auto st = opt_measure(f, k, *dst, true, kMaxGbS, "GB/s"); !st) return st.error();
      }
      if (auto st = opt_measure(f, "compute_score_est", g.compute_score_est, false, kMaxGflops, "score"); !st) return st.error();
      if (auto st = opt_measure(f, "gflops_est", g.gflops_est, true, kMaxGflops, "GFLOP/s"); !st) return st.error();
      if (auto st = opt_measure(f, "launch_us_est", g.launch_us_est, false, kMaxLatency, "us"); !st) return st.error();
      s.gpus.push_back(g);
    }
  }
  if (top.has("ram")) {
    Fields f(j["ram"], input_name(path), 0, "/ram");
    if (auto st = f.only({"total_bytes", "free_bytes"}); !st) return st.error();
    for (auto [k, dst] : {std::pair{"total_bytes", &s.ram.total_bytes}, std::pair{"free_bytes", &s.ram.free_bytes}}) {
      if (!f.has(k)) continue;
      auto v = f.unsigned_int(k);
      if (!v) return v.error();
      *dst = *v;
    }
    if (f.has("total_bytes") && f.has("free_bytes")) {
      if (auto st = free_within_total(f, "free_bytes", s.ram.free_bytes, "total_bytes", s.ram.total_bytes); !st) {
        return st.error();
      }
    }
  }
  if (top.has("ssd")) {
    Fields f(j["ssd"], input_name(path), 0, "/ssd");
    if (auto st = f.only({"cache_dir", "read_mb_s_est", "write_mb_s_est", "latency_ms_est", "fs_total_bytes", "fs_free_bytes"}); !st) {
      return st.error();
    }
    if (f.has("cache_dir")) {
      auto c = f.string("cache_dir");
      if (!c) return c.error();
      s.ssd.cache_dir = *c;
    }
    for (auto [k, dst] : {std::pair{"read_mb_s_est", &s.ssd.read_mb_s_est}, std::pair{"write_mb_s_est", &s.ssd.write_mb_s_est}}) {
      if (auto st = opt_measure(f, k, *dst, true, kMaxMbS, "MB/s"); !st) return st.error();
    }
    if (auto st = opt_measure(f, "latency_ms_est", s.ssd.latency_ms_est, false, kMaxLatency, "ms"); !st) return st.error();
    if (auto st = opt_u64(f, "fs_total_bytes", s.ssd.fs_total_bytes); !st) return st.error();
    if (auto st = opt_u64(f, "fs_free_bytes", s.ssd.fs_free_bytes); !st) return st.error();
    if (s.ssd.fs_free_bytes && s.ssd.fs_total_bytes) {
      if (auto st = free_within_total(f, "fs_free_bytes", *s.ssd.fs_free_bytes, "fs_total_bytes", *s.ssd.fs_total_bytes);
          !st) {
        return st.error();
      }
    }
  }
  if (top.has("reliability_by_device")) {
    auto obj = top.object("reliability_by_device");
    if (!obj) return obj.error();
    for (const auto& [id, val] : (*obj)->items()) {
      Fields f(val, input_name(path), 0, "/reliability_by_device/" + common::json_pointer_token(id));
      if (auto st = f.only({"ok_count", "fail_count", "last_error", "last_error_epoch_ms"}); !st) return st.error();
      hybrid::ReliabilityStats r;
      for (auto [k, dst] : {std::pair{"ok_count", &r.ok_count}, std::pair{"fail_count", &r.fail_count}}) {
        if (!f.has(k)) continue;
        auto v = f.unsigned_int(k);
        if (!v) return v.error();
        *dst = *v;
      }
      if (f.has("last_error")) {
        auto e = f.string("last_error");
        if (!e) return e.error();
        r.last_error = *e;
      }
      if (auto st = opt_u64(f, "last_error_epoch_ms", r.last_error_epoch_ms); !st) return st.error();
      s.reliability_by_device[id] = r;
    }
  }
  if (top.has("pressure")) {
    Fields f(j["pressure"], input_name(path), 0, "/pressure");
    if (auto st = f.only({"ram_pressure", "vram_pressure"}); !st) return st.error();
    for (auto [k, dst] : {std::pair{"ram_pressure", &s.pressure.ram_pressure}, std::pair{"vram_pressure", &s.pressure.vram_pressure}}) {
      if (!f.has(k)) continue;
      auto v = f.unit_float(k);
      if (!v) return v.error();
      *dst = *v;
    }
  }
  return s;
}

}  // namespace atenia::cli
