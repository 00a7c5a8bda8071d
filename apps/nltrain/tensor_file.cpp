// nltrain's parameters in and out of safetensors files (layout checks: hybrid's strict parser).
#include "tensor_file.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/file_system.hpp"
#include "hybrid/tensor_io/safetensors_writer.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "nl/checkpoint.hpp"
#include "nl/named_tensors.hpp"
#include "nl/state_json.hpp"

namespace nltrain::cli {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian");

struct Slot {
  std::string name;
  std::vector<std::size_t> shape;
  std::span<float> data;
};

// Every tensor of the file in order: the parameters, then (when given) adam_m/..., adam_v/....
std::vector<Slot> slots(const nl::MagConfig& cfg, nl::MagParams<float>& p, nl::MagParams<float>* m,
                        nl::MagParams<float>* v) {
  std::vector<Slot> out;
  auto add = [&](nl::MagParams<float>& x, const std::string& prefix) {
    for (auto& t : nl::named_tensors(cfg, x)) out.push_back({prefix + t.name, t.shape, t.data});
  };
  add(p, "");
  if (m != nullptr && v != nullptr) add(*m, "adam_m/"), add(*v, "adam_v/");
  return out;
}

common::Error bad(const std::string& path, const std::string& what) { return common::Error::malformed(path + ": " + what); }

}  // namespace

std::string encode_tensor_file(const nl::MagConfig& cfg, const nl::MagParams<float>& params, const nl::MagParams<float>* m,
                               const nl::MagParams<float>* v, std::uint64_t step) {
  // named_tensors gives mutable views; the copies keep this function's inputs const.
  nl::MagParams<float> p = params;
  std::optional<nl::MagParams<float>> mm, vv;
  if (m != nullptr && v != nullptr) mm = *m, vv = *v;
  const std::vector<Slot> all = slots(cfg, p, mm ? &*mm : nullptr, vv ? &*vv : nullptr);
  std::vector<hybrid::TensorToWrite> tensors;
  for (const Slot& s : all) {
    tensors.push_back({s.name, "F32", {s.shape.begin(), s.shape.end()},
                       {reinterpret_cast<const std::uint8_t*>(s.data.data()), s.data.size() * sizeof(float)}});
  }
  return hybrid::encode_safetensors(
      {{"format", "pt"}, {kConfigKey, nl::config_to_json(cfg).dump()}, {kStepKey, std::to_string(step)}}, tensors);
}

common::Result<TensorFileState> load_tensor_file(const std::string& path) {
  common::FileSystem& fs = common::real_file_system();
  if (!fs.exists(path)) return common::Error::io(path + ": no such file");
  auto text = common::read_text(fs, path, nl::kMaxCheckpointBytes);
  if (!text.ok()) return text.error().at_file(path);
  const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text->data()), text->size());
  auto tf = hybrid::parse_safetensors(bytes, path);
  if (!tf.ok()) return tf.error();
  const auto doc = nlohmann::ordered_json::parse(tf->header.substr(8), nullptr, false);  // parse_safetensors checked it
  const nlohmann::ordered_json meta = doc.contains("__metadata__") ? doc["__metadata__"] : nlohmann::ordered_json::object();
  for (const auto& [k, val] : meta.items()) {
    if (k.starts_with("nltrain.") && k != kConfigKey && k != kStepKey) return bad(path, "metadata key \"" + k + "\": unknown");
  }
  if (!meta.contains(kConfigKey)) return bad(path, std::string("metadata key \"") + kConfigKey + "\": missing");
  TensorFileState st;
  const auto cj = nlohmann::ordered_json::parse(meta[kConfigKey].get<std::string>(), nullptr, false);
  if (cj.is_discarded()) return bad(path, std::string("metadata key \"") + kConfigKey + "\": not JSON");
  auto cfg = nl::parse_config_json(cj, "");
  if (!cfg.ok()) return bad(path, std::string("metadata key \"") + kConfigKey + "\": " + cfg.error().message());
  st.cfg = *cfg;
  if (meta.contains(kStepKey)) {
    const std::string s = meta[kStepKey].get<std::string>();
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
      return bad(path, std::string("metadata key \"") + kStepKey + "\": expected a decimal step");
    }
    st.step = std::stoull(s);
  }
  std::map<std::string, const hybrid::FileTensor*> in_file;
  bool has_adam = false;
  for (const auto& t : tf->tensors) {
    in_file[t.name] = &t;
    has_adam = has_adam || t.name.starts_with("adam_m/") || t.name.starts_with("adam_v/");
  }
  st.params = nl::MagParams<float>::zeros(st.cfg);
  if (has_adam) st.adam_m = nl::MagParams<float>::zeros(st.cfg), st.adam_v = nl::MagParams<float>::zeros(st.cfg);
  const std::vector<Slot> want = slots(st.cfg, st.params, has_adam ? &*st.adam_m : nullptr, has_adam ? &*st.adam_v : nullptr);
  for (const Slot& s : want) {
    auto it = in_file.find(s.name);
    if (it == in_file.end()) return bad(path, "tensor \"" + s.name + "\": missing (the config needs it)");
    const hybrid::FileTensor& t = *it->second;
    if (t.dtype != "F32") return bad(path, "tensor \"" + s.name + "\": dtype " + t.dtype + ", expected F32");
    const std::vector<std::uint64_t> need(s.shape.begin(), s.shape.end());
    if (t.shape != need) return bad(path, "tensor \"" + s.name + "\": shape " + hybrid::shape_text(t.shape) + ", expected " + hybrid::shape_text(need));
    std::memcpy(s.data.data(), text->data() + t.offset, s.data.size() * sizeof(float));
    // AdamW's second moment is a running mean of squares: a negative one is no state AdamW can
    // reach, and its square root in the update would be NaN.
    const bool second_moment = s.name.starts_with("adam_v/");
    for (std::size_t i = 0; i < s.data.size(); ++i) {
      if (!std::isfinite(s.data[i])) return bad(path, "tensor \"" + s.name + "\": element " + std::to_string(i) + " is not finite");
      if (second_moment && s.data[i] < 0) {
        return bad(path, "tensor \"" + s.name + "\": element " + std::to_string(i) + " is negative (a second moment)");
      }
    }
    in_file.erase(it);
  }
  if (!in_file.empty()) return bad(path, "tensor \"" + in_file.begin()->first + "\": not a parameter of this config");
  return st;
}

}  // namespace nltrain::cli
