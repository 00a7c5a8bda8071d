// import: receipt-shaped JSONL turned into framework-trace sidecars (the step fields, with
// optimizer_config as the optimizer block, under the format its optimizer calls for), imported one step and as a bundle.
// Invariants: the importer never throws; the same bytes import to the same bytes; refusals are
// one-line errors; accepted receipts validate against the receipt schema they name and
// re-emit to the same bytes; a bundle's digest is the sha256 of its bytes without the digest.
// capture: the same sidecars as a helper capture (each line's numbers as slots, their values as
// binary64), damaged now and then (a byte flipped, or cut short) where the input's hash points.
// Invariants: expand_capture never throws, is deterministic and refuses in one line; an undamaged
// capture expands to JSON equal to the sidecars; a capture imports exactly as its expansion does.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <cstdlib>
#include <cmath>
#include <regex>
#include <vector>
#include <string>

#include "common/json_input.hpp"
#include "common/sha256.hpp"
#include "fuzz_targets.hpp"
#include "importer/helper_capture.hpp"
#include "importer/observer_import.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "schema_registry/schema_registry.hpp"
#include "schema_registry/validator.hpp"

namespace fuzz {
namespace {

void require(bool ok, const char* invariant, const std::string& detail = {}) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

nlohmann::ordered_json as_sidecar(const nlohmann::ordered_json& r) {
  if (!r.is_object()) return r;
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  const auto oc = r.find("optimizer_config");
  const std::string name = oc != r.end() && oc->is_object() && oc->contains("name") && (*oc)["name"].is_string()
                               ? (*oc)["name"].get<std::string>()
                               : "";
  s["format"] = name == "adam" || name == "adamw" ? "framework-trace.v0.4.0"
                : name == "sgd_momentum"           ? "framework-trace.v0.6.0"
                : name == "sgd"                    ? "framework-trace.v0.8.0"
                                                   : "framework-trace.v0.3.0";
  s["source_framework"] = {{"name", "pytorch"}, {"version", "2.5.0"}};
  for (auto it = r.begin(); it != r.end(); ++it) {
    static const char* const kStep[] = {"trace_id", "step_index", "topology", "learning_rate", "numeric_policy",
                                        "bias_policy", "batch", "inputs", "targets", "parameters_before",
                                        "per_sample", "forward", "loss", "backward", "updates", "parameters_after",
                                        "post_update_forward", "post_update_loss"};
    for (const char* key : kStep) {
      if (it.key() == key) s[key] = it.value();
    }
    if (it.key() == "optimizer_config") s["optimizer"] = it.value();
  }
  return s;
}

void check_accepted(const importer::ImportResult& r) {
  auto records = common::parse_jsonl_text(r.bytes);
  require(records.ok(), "imported receipts parse back", records.ok() ? "" : records.error().to_string());
  require(records->size() == r.steps.size(), "one receipt per step");
  for (const auto& rec : *records) {
    const auto* schema = schema_registry::find_schema(schema_registry::pick_receipt_version(rec.value));
    require(schema != nullptr, "observer receipts name a shipped schema version");
    const auto errors = schema_registry::validate(*schema, rec.value);
    require(errors.empty(), "observer receipts are schema-valid", errors.empty() ? "" : errors.front().to_string());
    auto again = receipt::emit::emit_receipt_line(rec.value);
    require(again.ok() && r.bytes.find(*again) != std::string::npos, "observer receipts re-emit to their bytes");
  }
}

void check_refused(const common::Error& e) {
  require(!e.message().empty(), "error has a message");
  require(e.to_string().find('\n') == std::string::npos, "error is one line", e.to_string());
}

// The sidecar with each number swapped for its slot marker, the slots' values appended to values.
// Integers beyond 2^53 stay in the text, as a capture cannot hold them exactly.
nlohmann::ordered_json with_slots(const nlohmann::ordered_json& j, std::vector<double>& values) {
  constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
  const auto limit = static_cast<std::int64_t>(kExact);
  const bool exact_integer =
      (j.is_number_unsigned() && j.get<std::uint64_t>() <= kExact) ||
      (j.is_number_integer() && !j.is_number_unsigned() && j.get<std::int64_t>() >= -limit &&
       j.get<std::int64_t>() <= limit);
  if (j.is_number_float() || exact_integer) {
    const bool integer = !j.is_number_float();
    std::string marker(1, integer ? '\x01' : '\x00');
    marker += std::to_string(values.size());
    values.push_back(j.get<double>());
    return marker;
  }
  if (j.is_object()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = with_slots(it.value(), values);
    return out;
  }
  if (j.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& v : j) out.push_back(with_slots(v, values));
    return out;
  }
  return j;
}

template <typename T>
void put(std::string& out, T v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out.append(b, sizeof v);
}

// A capture holding the sidecars, one layout per line (a sidecar without numbers stays out).
std::string capture_of(const std::vector<nlohmann::ordered_json>& sidecars) {
  std::string out(importer::kCaptureMagic);
  std::uint32_t id = 0;
  for (const auto& s : sidecars) {
    std::vector<double> values;
    const std::string text = with_slots(s, values).dump();
    if (values.empty()) continue;
    std::string layout, steps;
    put(layout, id);
    put(layout, static_cast<std::uint32_t>(values.size()));
    layout += text;
    put(steps, id++);
    put(steps, std::uint32_t{1});
    for (double v : values) put(steps, v);
    out += 'L';
    put(out, static_cast<std::uint64_t>(layout.size()));
    out += layout;
    out += 'S';
    put(out, static_cast<std::uint64_t>(steps.size()));
    out += steps;
  }
  return out;
}

// The sidecars made of the input's JSONL records (at most 16), or how far the input got.
std::optional<Depth> read_sidecars(std::string_view data, std::vector<nlohmann::ordered_json>& sidecars) {
  common::JsonInputOptions o;
  o.max_bytes = 1 << 20;
  o.bom = common::BomPolicy::strip;
  auto records = common::parse_jsonl_text(data, o);
  if (!records) return Depth::parse_refused;
  if (records->size() > 16) return Depth::later_refused;
  for (const auto& r : *records) sidecars.push_back(as_sidecar(r.value));
  return std::nullopt;
}

}  // namespace

Depth capture_target(std::string_view data) {
  std::vector<nlohmann::ordered_json> sidecars;
  if (auto stopped = read_sidecars(data, sidecars)) return *stopped;
  for (const auto& sidecar : sidecars) {
    // A string starting with U+0000 or U+0001 would read as a slot: the helper never writes one.
    const std::string text = sidecar.dump();
    if (text.find("\"\\u0000") != std::string::npos || text.find("\"\\u0001") != std::string::npos) {
      return Depth::later_refused;
    }
  }
  std::string capture = capture_of(sidecars);
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a of the input picks the damage
  for (const char c : data) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  const bool damaged = h % 3 != 0 && capture.size() > importer::kCaptureMagic.size();
  if (damaged && h % 3 == 1) capture[(h >> 8) % capture.size()] ^= static_cast<char>(1 + (h >> 40) % 255);
  if (damaged && h % 3 == 2) capture.resize((h >> 8) % capture.size());
  constexpr std::size_t kMax = 1 << 22;
  auto text = importer::expand_capture(capture, kMax);
  auto again = importer::expand_capture(capture, kMax);
  require(text.ok() == again.ok() && (!text.ok() || *text == *again), "expansion is deterministic");
  if (!text) {
    check_refused(text.error());
    require(damaged, "an undamaged capture expands", text.error().to_string());
    return Depth::later_refused;
  }
  require(text->size() <= kMax, "expansion stays under its cap");
  if (!damaged) {
    std::string want;
    for (const auto& s : sidecars) {
      std::vector<double> unused;
      (void)with_slots(s, unused);
      if (!unused.empty()) want += s.dump() + "\n";
    }
    auto got = common::parse_jsonl_text(*text);
    auto expected = common::parse_jsonl_text(want);
    require(got.ok() && expected.ok() && got->size() == expected->size(), "expansion parses as the sidecars",
            text->substr(0, 200));
    for (std::size_t i = 0; i < got->size(); ++i) {
      require(nlohmann::json((*got)[i].value) == nlohmann::json((*expected)[i].value),
              "expansion equals the sidecars", text->substr(0, 200));
    }
  }
  if (importer::is_capture(*text)) return Depth::later_refused;  // refused as a nested capture
  importer::ImportOptions options;
  options.import_timestamp = "2026-01-01T00:00:00.000Z";
  auto from_capture = importer::import_sidecar_stream(capture, options);
  auto from_text = importer::import_sidecar_stream(*text, options);
  require(from_capture.ok() == from_text.ok(), "a capture imports as its expansion");
  if (from_capture.ok()) {
    require(from_capture->bytes == from_text->bytes, "a capture imports to its expansion's bytes");
    return Depth::accepted;
  }
  const std::string a = from_capture.error().message(), b = from_text.error().message();
  require(a == b || text->empty(), "a capture is refused as its expansion is", a + " | " + b);
  return Depth::later_refused;
}

Depth import_target(std::string_view data) {
  std::vector<nlohmann::ordered_json> sidecars;
  if (auto stopped = read_sidecars(data, sidecars)) return *stopped;
  std::string single, bundle;
  for (const auto& sidecar : sidecars) {
    const std::string line = sidecar.dump();
    if (single.empty()) single = line;
    bundle += line + "\n";
  }
  importer::ImportOptions options;
  options.import_timestamp = "2026-01-01T00:00:00.000Z";
  Depth depth = Depth::later_refused;
  auto one = importer::import_sidecar(single, options);
  auto same = importer::import_sidecar(single, options);
  require(one.ok() == same.ok() && (!one.ok() || one->bytes == same->bytes), "import is deterministic");
  if (one.ok()) {
    check_accepted(*one);
    depth = Depth::accepted;
  } else {
    check_refused(one.error());
  }
  auto many = importer::import_sidecar_stream(bundle, options);
  if (many.ok()) {
    check_accepted(*many);
    const std::string unbound =
        std::regex_replace(many->bytes, std::regex(",\"bundle_root_digest\":\"sha256:[0-9a-f]{64}\""), "");
    require(many->bundle_root_digest == "sha256:" + common::sha256_hex(unbound), "bundle digest covers the bundle");
    depth = Depth::accepted;
  } else {
    check_refused(many.error());
  }
  return depth;
}

}  // namespace fuzz
