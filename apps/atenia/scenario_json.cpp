#include "scenario_json.hpp"

#include <tuple>

#include <set>

#include "cli_support.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"

namespace atenia::cli {

namespace {

common::Result<hybrid::TierStatus> read_tier(const Fields& parent, const char* key) {
  hybrid::TierStatus t;
  if (!parent.has(key)) return t;
  auto obj = parent.object(key);
  if (!obj) return obj.error();
  Fields f(**obj, parent.file, 0, parent.pointer(key));
  if (auto s = f.only({"pressure", "total_bytes", "free_bytes"}); !s) return s.error();
  if (f.has("pressure")) {
    auto p = f.unit_float("pressure");
    if (!p) return p.error();
    t.pressure = *p;
  }
  for (auto [k, dst] : {std::pair{"total_bytes", &t.total_bytes}, std::pair{"free_bytes", &t.free_bytes}}) {
    if (!f.has(k)) continue;
    auto v = f.unsigned_int(k);
    if (!v) return v.error();
    *dst = *v;
  }
  return t;
}

common::Status read_offload(const Fields& top, hybrid::OffloadConfig& cfg) {
  if (!top.has("offload")) return {};
  auto obj = top.object("offload");
  if (!obj) return obj.error();
  Fields f(**obj, top.file, 0, "/offload");
  if (auto s = f.only({"vram_high", "vram_low", "ram_high", "ram_low", "cooldown_ticks", "max_actions_per_tick"}); !s) {
    return s;
  }
  for (auto [k, dst] : {std::pair{"vram_high", &cfg.vram_high}, std::pair{"vram_low", &cfg.vram_low},
                        std::pair{"ram_high", &cfg.ram_high}, std::pair{"ram_low", &cfg.ram_low}}) {
    if (!f.has(k)) continue;
    auto v = f.unit_float(k);
    if (!v) return v.error();
    *dst = *v;
  }
  // Hysteresis: offloading starts above *_high and stops below *_low, so low must not exceed high.
  for (auto [lo, hi, lo_v, hi_v] : {std::tuple{"vram_low", "vram_high", cfg.vram_low, cfg.vram_high},
                                    std::tuple{"ram_low", "ram_high", cfg.ram_low, cfg.ram_high}}) {
    if (lo_v > hi_v) {
      return common::Error::invalid_argument(std::string(lo) + " (" + float_json(lo_v).dump() +
                                                 ") must not exceed " + hi + " (" + float_json(hi_v).dump() + ")",
                                             common::Location{f.file, 0, f.pointer(lo)});
    }
  }
  if (f.has("cooldown_ticks")) {
    auto v = f.unsigned_int("cooldown_ticks");
    if (!v) return v.error();
    cfg.cooldown_ticks = *v;
  }
  if (f.has("max_actions_per_tick")) {
    auto v = f.unsigned_int("max_actions_per_tick");
    if (!v) return v.error();
    cfg.max_actions_per_tick = *v;
  }
  return {};
}

// Tensor ids and node names appear in the simulation's timeline and its FINAL/MOVED lines, one
// record a line with space-separated fields: a space or a control character in one would split
// a field or forge a line. They are refused at the input instead, naming the offending byte.
common::Status plain_name(const Fields& f, const char* key, const std::string& name) {
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c <= 0x20 || c == 0x7F) {
      return f.error(key, "byte " + std::to_string(i) + " of \"" + common::excerpt(name) +
                              "\" is a space or a control character; names and ids may hold neither");
    }
  }
  return {};
}

// Ticks x (nodes + tensors): main at b687e58 took 1.7 GB of memory and wrote 304 MB for
// 1,000 x 1,000.
constexpr std::uint64_t kMaxScenarioTickWork = 100000;

// All tensors together: the simulation holds every one of them (in RAM, or as SSD blobs).
constexpr std::uint64_t kMaxScenarioTotalBytes = std::uint64_t{1} << 30;

}  // namespace

common::Result<hybrid::BatchScenario> read_scenario(const std::string& path) {
  auto doc = read_json_input(path);
  if (!doc) return doc.error();
  Fields top(*doc, input_name(path), 0, "");
  if (auto s = top.only({"gpu_available", "advanced_streams", "offload", "tensors", "nodes", "ticks"}); !s) {
    return s.error();
  }
  hybrid::BatchScenario sc;
  auto gpu = top.boolean("gpu_available");
  if (!gpu) return gpu.error();
  sc.gpu_available = *gpu;
  if (top.has("advanced_streams")) {
    auto a = top.boolean("advanced_streams");
    if (!a) return a.error();
    sc.advanced_streams = *a;
  }
  if (auto s = read_offload(top, sc.offload); !s) return s.error();

  auto tensors = top.array("tensors");
  if (!tensors) return tensors.error();
  std::set<std::string> ids;
  std::uint64_t total_bytes = 0;
  for (std::size_t i = 0; i < (*tensors)->size(); ++i) {
    Fields f((**tensors)[i], input_name(path), 0, "/tensors/" + std::to_string(i));
    if (auto s = f.only({"id", "bytes", "tier"}); !s) return s.error();
    hybrid::ScenarioTensor t;
    auto id = f.string("id");
    if (!id) return id.error();
    if (id->empty() || !ids.insert(*id).second) return f.error("id", "tensor ids must be non-empty and unique, got \"" + common::excerpt(*id) + "\"");
    if (auto s = plain_name(f, "id", *id); !s) return s.error();
    t.id = *id;
    auto bytes = f.unsigned_int("bytes");
    if (!bytes) return bytes.error();
    if (*bytes > hybrid::kMaxScenarioTensorBytes) return f.error("bytes", "larger than the 64 MiB limit");
    t.bytes = *bytes;
    total_bytes += t.bytes;
    if (total_bytes > kMaxScenarioTotalBytes) {
      return f.error("bytes", "the tensors up to this one hold " + std::to_string(total_bytes) +
                                  " bytes, over the 1 GiB a scenario may hold in all");
    }
    auto tier = f.string("tier");
    if (!tier) return tier.error();
    auto parsed = hybrid::parse_memory_tier(*tier);
    if (!parsed) return f.error("tier", "expected \"ram\", \"ssd\", \"vram\" or \"cpu\", got \"" + *tier + "\"");
    t.initial = *parsed;
    sc.tensors.push_back(t);
  }

  auto nodes = top.array("nodes");
  if (!nodes) return nodes.error();
  for (std::size_t i = 0; i < (*nodes)->size(); ++i) {
    Fields f((**nodes)[i], input_name(path), 0, "/nodes/" + std::to_string(i));
    if (auto s = f.only({"name", "kind", "flops", "bytes", "tensors"}); !s) return s.error();
    hybrid::ScenarioNode n;
    auto name = f.string("name");
    if (!name) return name.error();
    if (auto s = plain_name(f, "name", *name); !s) return s.error();
    n.kernel.name = *name;
    auto kind = f.string("kind");
    if (!kind) return kind.error();
    auto k = hybrid::parse_kernel_kind(*kind);
    if (!k) return f.error("kind", "expected compute_heavy, memory_bound, small or serial, got \"" + *kind + "\"");
    n.kernel.kind = *k;
    auto flops = f.unsigned_int("flops");
    if (!flops) return flops.error();
    n.kernel.estimated_flops = *flops;
    auto bytes = f.unsigned_int("bytes");
    if (!bytes) return bytes.error();
    n.kernel.estimated_bytes = *bytes;
    auto refs = f.array("tensors");
    if (!refs) return refs.error();
    Fields refs_f(**refs, input_name(path), 0, f.pointer("tensors"));
    for (std::size_t k2 = 0; k2 < (*refs)->size(); ++k2) {
      const auto& ref = (**refs)[k2];
      const std::string at = std::to_string(k2);
      if (!ref.is_string()) return refs_f.error(at, "expected a tensor id string, got " + common::excerpt(ref.dump()));
      if (!ids.contains(ref.get<std::string>())) {
        return refs_f.error(at, "unknown tensor id \"" + ref.get<std::string>() + "\"");
      }
      n.tensor_ids.push_back(ref.get<std::string>());
    }
    sc.nodes.push_back(std::move(n));
  }

  auto ticks = top.array("ticks");
  if (!ticks) return ticks.error();
  if ((*ticks)->empty()) return top.error("ticks", "a scenario needs at least one tick");
  // The simulation keeps and prints a line per node and per tensor each tick: its memory and
  // output grow as ticks x (nodes + tensors). Refused above the bound, before any of it runs.
  const std::uint64_t work = std::uint64_t{(*ticks)->size()} * (sc.nodes.size() + sc.tensors.size());
  if (work > kMaxScenarioTickWork) {
    return top.error("ticks", std::to_string((*ticks)->size()) + " ticks x " +
                                  std::to_string(sc.nodes.size() + sc.tensors.size()) + " nodes and tensors is " +
                                  std::to_string(work) + ", over the " + std::to_string(kMaxScenarioTickWork) +
                                  " a scenario may hold");
  }
  for (std::size_t i = 0; i < (*ticks)->size(); ++i) {
    Fields f((**ticks)[i], input_name(path), 0, "/ticks/" + std::to_string(i));
    if (auto s = f.only({"vram", "ram", "ssd"}); !s) return s.error();
    hybrid::MemorySnapshot snap;
    for (auto [k, dst] : {std::pair{"vram", &snap.vram}, std::pair{"ram", &snap.ram}, std::pair{"ssd", &snap.ssd}}) {
      auto t = read_tier(f, k);
      if (!t) return t.error();
      *dst = *t;
    }
    sc.ticks.push_back(snap);
  }
  return sc;
}

}  // namespace atenia::cli
