#include "hybrid/placement/capacity_placement.hpp"

#include <charconv>

#include "hybrid/placement/tensor_placement.hpp"

namespace hybrid {

namespace {

std::string fixed2(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 2);
  return ec == std::errc() ? std::string(buf, p) : std::string("?");
}

// Bytes in the largest binary unit that keeps the number >= 1, two decimals ("1.50 GiB").
std::string human(std::uint64_t b) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(b);
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(kUnits)) {
    v /= 1024.0;
    ++u;
  }
  if (u == 0) return std::to_string(b) + " B";
  return fixed2(v) + " " + kUnits[u];
}

// Pressure in [0, 1] after `add` more bytes: from the tier's sizes when known (the one
// source of truth for a sized decision), else the snapshot's pressure plus add/total.
TierCapacity tier(std::uint64_t add, std::optional<std::uint64_t> free, std::optional<std::uint64_t> total,
                  std::optional<float> snapshot_pressure) {
  TierCapacity t;
  t.free_bytes = free;
  t.total_bytes = total;
  if (total && *total > 0 && free) {
    const std::uint64_t f = *free > *total ? *total : *free;
    const double used = static_cast<double>(*total - f);
    t.pressure_now = static_cast<float>(used / static_cast<double>(*total));
    t.pressure_after = static_cast<float>((used + static_cast<double>(add)) / static_cast<double>(*total));
  } else if (snapshot_pressure) {
    t.pressure_now = clamp01(*snapshot_pressure);
    t.pressure_after = t.pressure_now;
  }
  t.fits = free.has_value() && add <= *free;
  return t;
}

std::string free_text(const char* name, const TierCapacity& t) {
  if (!t.free_bytes) return std::string(name) + " free space unknown";
  std::string s = std::string(name) + " has " + human(*t.free_bytes) + " free";
  if (t.total_bytes && *t.total_bytes > 0) s += " of " + human(*t.total_bytes);
  return s;
}

std::string after_text(const char* name, const TierCapacity& t, float threshold) {
  return std::string(name) + " pressure after placing " + fixed2(*t.pressure_after) +
         (*t.pressure_after < threshold ? " < " : " >= ") + fixed2(threshold);
}

}  // namespace

CapacityDecision decide_with_capacity(const TensorProfile& tensor, const GlobalHardwareSnapshot& hw) {
  using namespace placement;
  CapacityDecision d;
  d.bytes = tensor.total_size_bytes();
  d.compute_heavy = tensor.estimated_compute_cost.value_or(0.0F) >= kComputeHeavy;
  const std::string size = human(d.bytes);

  std::optional<std::pair<const GpuCaps*, float>> gpu = best_gpu(hw);
  if (gpu) {
    const GpuCaps& g = *gpu->first;
    d.vram = tier(d.bytes, g.vram_free_bytes, g.vram_total_bytes, hw.pressure.vram_pressure);
  }
  d.ram = tier(d.bytes, hw.ram.total_bytes > 0 ? std::optional(hw.ram.free_bytes) : std::nullopt,
               hw.ram.total_bytes > 0 ? std::optional(hw.ram.total_bytes) : std::nullopt, hw.pressure.ram_pressure);
  // RAM of unknown size (a hand-written snapshot with only a pressure): the seed's
  // pressure-only rule decides, so it counts as having room.
  if (!d.ram.free_bytes) d.ram.fits = true;
  d.ssd = tier(d.bytes, hw.ssd.fs_free_bytes, hw.ssd.fs_total_bytes, std::nullopt);
  if (!d.ssd.free_bytes) d.ssd.fits = true;  // unknown: allowed as the last resort, and said so

  // Why VRAM was not chosen, for the RAM/SSD reasons.
  std::string not_vram;
  if (!gpu) {
    not_vram = "no GPU in the snapshot";
  } else {
    const GpuCaps& g = *gpu->first;
    const float rel = gpu->second;
    const TierCapacity& v = *d.vram;
    const float after = v.pressure_after.value_or(1.0F);
    if (!v.fits) {
      not_vram = size + " does not fit in " + g.id + "'s " + human(v.free_bytes.value_or(0)) + " free VRAM";
    } else if (after >= kVramSafe) {
      not_vram = g.id + " VRAM pressure after placing would be " + fixed2(after) + " >= " + fixed2(kVramSafe);
    } else if (v.free_bytes ? d.bytes > *v.free_bytes / kHugeShareOfFreeVram : d.bytes > kTensorHugeBytes) {
      // Huge is relative to the GPU: a tensor taking more than half of its free VRAM would leave
      // too little for the kernels' working set. Only a GPU of unknown free memory falls back to
      // the seed's fixed 512 MiB.
      not_vram = v.free_bytes ? "the tensor is huge for " + g.id + " (" + size + " > half of its " +
                                    human(*v.free_bytes) + " free VRAM)"
                              : "the tensor is huge (" + size + " > " + human(kTensorHugeBytes) + ")";
    } else if (!d.compute_heavy && rel < kGpuReliable) {
      not_vram = g.id + " is unreliable (reliability " + fixed2(rel) + " < " + fixed2(kGpuReliable) +
                 ") for a tensor that is not compute-heavy";
    } else {
      d.target = PlacementTarget::vram;
      d.device_id = g.id;
      d.reason = size + " fits in " + g.id + "'s VRAM (" + free_text("VRAM", v).substr(5) + "; " +
                 after_text("VRAM", v, kVramSafe) + "; reliability " + fixed2(rel) +
                 (d.compute_heavy ? "; compute-heavy" : "") + ")";
      return d;
    }
  }

  const float ram_after = d.ram.pressure_after.value_or(0.0F);
  const bool ram_known = d.ram.pressure_after.has_value();
  const std::string ram_after_text = ram_known ? after_text("RAM", d.ram, kRamSafe) : "RAM pressure unknown";
  if (d.ram.fits && ram_after < kRamSafe) {
    d.target = PlacementTarget::ram;
    d.reason = "RAM: " + not_vram + "; " + size + " fits in RAM (" + free_text("RAM", d.ram) + "; " +
               ram_after_text + ")";
    return d;
  }
  // Above the safe RAM threshold: the seed keeps a compute-heavy tensor out of the SSD while
  // RAM is not critical; everything else goes to the SSD when it has room.
  if (d.ram.fits && d.compute_heavy && ram_after < kRamCritical) {
    d.target = PlacementTarget::ram;
    d.reason = "RAM: " + not_vram + "; the tensor is compute-heavy and RAM is not critical (" +
               after_text("RAM", d.ram, kRamCritical) + "); " + free_text("RAM", d.ram);
    return d;
  }
  const std::string why_not_ram =
      !d.ram.fits ? size + " does not fit in RAM (" + free_text("RAM", d.ram) + ")" : ram_after_text;
  if (kSsdLastResortAllowed && d.ssd.fits) {
    d.target = PlacementTarget::ssd;
    d.reason = "SSD: " + not_vram + "; " + why_not_ram + "; " + free_text("SSD", d.ssd);
    return d;
  }
  d.reason = "no tier has room for " + size + ": " + not_vram + "; " + why_not_ram + "; " + free_text("SSD", d.ssd);
  return d;
}

}  // namespace hybrid
