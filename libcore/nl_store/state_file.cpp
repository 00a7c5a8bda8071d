#include "nl_store/state_file.hpp"

#include <bit>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <map>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "hybrid/tensor_io/safetensors_writer.hpp"
#include "hybrid/tensor_io/tensor_file.hpp"
#include "nl/state_json.hpp"

namespace nl_store {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian");

using Json = nlohmann::ordered_json;

template <typename T>
void add_prefixed(std::vector<nl::BasicNamedTensor<T>>& out, const std::string& prefix, std::vector<nl::BasicNamedTensor<T>> ts) {
  for (auto& t : ts) out.push_back({prefix + t.name, std::move(t.shape), t.data});
}

std::string level_name(std::size_t l) { return "levels/" + std::to_string(l) + "/"; }

// The precision's dtype and name in errors.
template <typename T>
constexpr const char* dtype_of() { return std::is_same_v<T, double> ? "F64" : "F32"; }
template <typename T>
constexpr const char* precision_of() { return std::is_same_v<T, double> ? "fp64" : "fp32"; }

template <typename T>
common::Result<Json> trainer_json(const nl::BasicTrainerState<T>& s) {
  const nl::AdamWConfig& o = s.opt;
  for (double v : {o.lr, o.beta1, o.beta2, o.eps, o.weight_decay, o.clip}) {
    if (!std::isfinite(v)) return common::Error::invalid_argument("an optimizer setting is not finite; it cannot be saved");
  }
  Json counts = Json::array();
  for (std::size_t c : s.buffer_counts) counts.push_back(c);
  return Json{{"format", kTrainerFormat},
              {"optimizer",
               {{"lr", o.lr}, {"beta1", o.beta1}, {"beta2", o.beta2}, {"eps", o.eps}, {"weight_decay", o.weight_decay},
                {"clip", o.clip}, {"warmup", o.warmup}, {"total_steps", o.total_steps}}},
              {"adamw_tau", s.adam.tau},
              {"adamw_tau_level", s.adam.tau_level},
              {"error_counts", counts}};
}

// The "nltrain.trainer" object into `s` (whose cfg is set): optimizer settings and counts.
template <typename T>
common::Status read_trainer(const Json& j, nl::BasicTrainerState<T>& s, const std::string& file) {
  common::JsonFields f(j, file + " __metadata__/" + kTrainerKey, 0, "");
  if (auto st = f.only({"format", "optimizer", "adamw_tau", "adamw_tau_level", "error_counts"}); !st) return st;
  auto format = f.unsigned_int("format");
  if (!format) return format.error();
  if (*format != kTrainerFormat) {
    return f.error("format", "trainer state format " + std::to_string(*format) + " is not one this nltrain reads (" +
                                 std::to_string(kTrainerFormat) + ")");
  }
  auto opt = f.object("optimizer");
  if (!opt) return opt.error();
  common::JsonFields o(**opt, f.file, 0, "/optimizer");
  if (auto st = o.only({"lr", "beta1", "beta2", "eps", "weight_decay", "clip", "warmup", "total_steps"}); !st) return st;
  for (auto [key, dst] : {std::pair{"lr", &s.opt.lr}, std::pair{"beta1", &s.opt.beta1}, std::pair{"beta2", &s.opt.beta2},
                          std::pair{"eps", &s.opt.eps}, std::pair{"weight_decay", &s.opt.weight_decay},
                          std::pair{"clip", &s.opt.clip}}) {
    auto v = o.number(key);
    if (!v) return v.error();
    *dst = *v;
  }
  for (auto [key, dst] : {std::pair{"warmup", &s.opt.warmup}, std::pair{"total_steps", &s.opt.total_steps}}) {
    auto v = o.unsigned_int(key);
    if (!v) return v.error();
    *dst = *v;
  }
  auto tau = f.unsigned_int("adamw_tau");
  if (!tau) return tau.error();
  s.adam.tau = *tau;
  const std::size_t levels = s.cfg.levels();
  for (const char* key : {"adamw_tau_level", "error_counts"}) {
    auto a = f.array(key);
    if (!a) return a.error();
    if ((*a)->size() != levels) {
      return f.error(key, "expected " + std::to_string(levels) + " counts (one per level), got " + std::to_string((*a)->size()));
    }
    std::vector<std::uint64_t> counts;
    for (const auto& x : **a) {
      if (!x.is_number_unsigned()) return f.error(key, "expected unsigned integers");
      counts.push_back(x.get<std::uint64_t>());
    }
    if (std::string(key) == "adamw_tau_level") s.adam.tau_level = counts;
    else s.buffer_counts.assign(counts.begin(), counts.end());
  }
  return {};
}

// A state shaped for cfg, every tensor zero: what decode fills.
template <typename T>
nl::BasicTrainerState<T> shaped_state(const nl::MagConfig& cfg) {
  nl::BasicTrainerState<T> s;
  s.cfg = cfg;
  s.params = nl::MagParams<T>::zeros(cfg);
  s.adam.m = s.params;
  s.adam.v = s.params;
  s.context = nl::ContextMemory<T>::initial(cfg);
  for (std::size_t l = 0; l < cfg.levels(); ++l) s.buffer_sums.push_back(nl::LevelParams<T>::zeros(cfg.d, nl::has_omega(cfg.rule)));
  return s;
}

template <typename T>
common::Result<std::string> encode(const nl::BasicCheckpoint<T>& c) {
  nl::BasicTrainerState<T> s = c.state;  // state_tensors gives mutable views; the copy keeps `c` const
  auto trainer = trainer_json(s);
  if (!trainer) return trainer.error();
  std::vector<hybrid::TensorToWrite> tensors;
  for (const nl::BasicNamedTensor<T>& t : state_tensors(s)) {
    tensors.push_back({t.name, dtype_of<T>(), {t.shape.begin(), t.shape.end()},
                       {reinterpret_cast<const std::uint8_t*>(t.data.data()), t.data.size() * sizeof(T)}});
  }
  return hybrid::encode_safetensors({{"format", "pt"},
                                     {kConfigKey, nl::config_to_json(s.cfg).dump()},
                                     {kStepKey, std::to_string(s.step)},
                                     {kTrainerKey, trainer->dump()},
                                     {kRunKey, c.run}},
                                    tensors);
}

// The dtype every tensor of the file has, when they agree (else empty).
std::string common_dtype(const hybrid::TensorFile& tf) {
  std::string d;
  for (const auto& t : tf.tensors) {
    if (!d.empty() && t.dtype != d) return {};
    d = t.dtype;
  }
  return d;
}

template <typename T>
common::Result<nl::BasicCheckpoint<T>> decode(std::span<const std::uint8_t> bytes, const std::string& what) {
  auto bad = [&](const std::string& msg) { return common::Error::malformed(what + ": " + msg); };
  auto tf = hybrid::parse_safetensors(bytes, what);
  if (!tf) return tf.error();
  // The precision first, in words: an fp64 state read as fp32 (or the other way round) is a
  // mismatch of the run, not damage to the file.
  if (const std::string d = common_dtype(*tf); (d == "F32" || d == "F64") && d != dtype_of<T>()) {
    return common::Error::invalid_argument(what + ": holds an " + (d == "F64" ? "fp64" : "fp32") + " trainer state (" + d +
                                           " tensors); it does not load as " + precision_of<T>());
  }
  const Json doc = Json::parse(tf->header.substr(8), nullptr, false);  // parse_safetensors checked it
  if (!doc.is_object() || !doc.contains("__metadata__")) return bad("no __metadata__: not an nltrain trainer state");
  const Json& meta = doc["__metadata__"];
  std::map<std::string, std::string> m;
  for (const auto& [k, v] : meta.items()) {
    if (k != "format" && k != kConfigKey && k != kStepKey && k != kTrainerKey && k != kRunKey) {
      return bad("metadata key \"" + k + "\": unknown");
    }
    m[k] = v.template get<std::string>();  // parse_safetensors: __metadata__ maps strings to strings
  }
  for (const char* k : {kConfigKey, kStepKey, kTrainerKey, kRunKey}) {
    if (!m.contains(k)) return bad(std::string("metadata key \"") + k + "\": missing");
  }
  auto json_of = [&](const char* key) -> common::Result<Json> {
    auto j = common::parse_json_text(m[key], {.file = what + " __metadata__/" + key});
    if (!j) return bad(std::string("metadata key \"") + key + "\": " + j.error().message());
    return j;
  };
  auto cj = json_of(kConfigKey);
  if (!cj) return cj.error();
  auto cfg = nl::parse_config_json(*cj, "");
  if (!cfg) return bad(std::string("metadata key \"") + kConfigKey + "\": " + cfg.error().message());
  nl::BasicCheckpoint<T> c{shaped_state<T>(*cfg), m[kRunKey]};
  nl::BasicTrainerState<T>& s = c.state;
  const std::string& step = m[kStepKey];
  if (step.empty() || step.size() > 19 || step.find_first_not_of("0123456789") != std::string::npos) {
    return bad(std::string("metadata key \"") + kStepKey + "\": expected a decimal step");
  }
  s.step = std::stoull(step);
  auto tj = json_of(kTrainerKey);
  if (!tj) return tj.error();
  // The strict reader's error carries the JSON path as its location: kept in the one line.
  if (auto st = read_trainer(*tj, s, what); !st) return common::Error::malformed(st.error().to_string());

  std::map<std::string, const hybrid::FileTensor*> in_file;
  for (const auto& t : tf->tensors) in_file[t.name] = &t;
  // The batch's streams: as many as the file names (context/<b>/...); the loop below then wants
  // every one of them whole, and nothing else.
  std::size_t streams = 1;
  for (const auto& [name, t] : in_file) {
    const std::string p = context_prefix();
    if (name.rfind(p, 0) != 0) continue;
    const std::size_t slash = name.find('/', p.size());
    const std::string b = name.substr(p.size(), slash == std::string::npos ? std::string::npos : slash - p.size());
    if (b.empty() || b.size() > 4 || b.find_first_not_of("0123456789") != std::string::npos || b[0] == '0') continue;
    streams = std::max<std::size_t>(streams, std::stoul(b) + 1);
  }
  s.more_contexts.assign(streams - 1, nl::ContextMemory<T>::initial(s.cfg));
  for (const nl::BasicNamedTensor<T>& want : state_tensors(s)) {
    auto it = in_file.find(want.name);
    if (it == in_file.end()) return bad("tensor \"" + want.name + "\": missing (the config needs it)");
    const hybrid::FileTensor& t = *it->second;
    if (t.dtype != dtype_of<T>()) return bad("tensor \"" + want.name + "\": dtype " + t.dtype + ", expected " + dtype_of<T>());
    const std::vector<std::uint64_t> need(want.shape.begin(), want.shape.end());
    if (t.shape != need) {
      return bad("tensor \"" + want.name + "\": shape " + hybrid::shape_text(t.shape) + ", expected " + hybrid::shape_text(need));
    }
    if (t.length != want.data.size() * sizeof(T)) return bad("tensor \"" + want.name + "\": length does not match its shape");
    std::memcpy(want.data.data(), bytes.data() + t.offset, want.data.size() * sizeof(T));
    in_file.erase(it);
  }
  if (!in_file.empty()) return bad("tensor \"" + in_file.begin()->first + "\": not part of this config's trainer state");
  return c;
}

}  // namespace

std::string context_prefix() { return "context/"; }

template <typename T>
std::vector<nl::BasicNamedTensor<T>> state_tensors(nl::BasicTrainerState<T>& s) {
  std::vector<nl::BasicNamedTensor<T>> out;
  add_prefixed(out, "", nl::named_tensors(s.cfg, s.params));
  add_prefixed(out, "adam_m/", nl::named_tensors(s.cfg, s.adam.m));
  add_prefixed(out, "adam_v/", nl::named_tensors(s.cfg, s.adam.v));
  for (std::size_t l = 0; l < s.context.levels.size(); ++l) {
    std::vector<T>& c = s.context.levels[l];
    out.push_back({context_prefix() + level_name(l) + "state", {c.size()}, c});
  }
  // A batched trainer's further streams (nltrain train --batch B): context/<b>/levels/<l>/state.
  for (std::size_t b = 0; b < s.more_contexts.size(); ++b) {
    for (std::size_t l = 0; l < s.more_contexts[b].levels.size(); ++l) {
      std::vector<T>& c = s.more_contexts[b].levels[l];
      out.push_back({context_prefix() + std::to_string(b + 1) + "/" + level_name(l) + "state", {c.size()}, c});
    }
  }
  for (std::size_t l = 0; l < s.buffer_sums.size(); ++l) {
    // named_level_tensors already spells "levels/<l>/<leaf>".
    add_prefixed(out, "error/", nl::named_level_tensors(s.cfg, l, s.buffer_sums[l]));
  }
  return out;
}

template std::vector<nl::BasicNamedTensor<float>> state_tensors(nl::BasicTrainerState<float>&);
template std::vector<nl::BasicNamedTensor<double>> state_tensors(nl::BasicTrainerState<double>&);

common::Result<std::string> encode_state_file(const nl::Checkpoint& c) { return encode(c); }
common::Result<std::string> encode_state_file(const nl::Checkpoint64& c) { return encode(c); }

common::Result<nl::Checkpoint> decode_state_file(std::span<const std::uint8_t> bytes, const std::string& what) {
  return decode<float>(bytes, what);
}
common::Result<nl::Checkpoint64> decode_state_file64(std::span<const std::uint8_t> bytes, const std::string& what) {
  return decode<double>(bytes, what);
}

common::Result<AnyCheckpoint> decode_any_state_file(std::span<const std::uint8_t> bytes, const std::string& what) {
  auto tf = hybrid::parse_safetensors(bytes, what);
  if (!tf) return tf.error();
  if (common_dtype(*tf) == "F64") {
    auto c = decode<double>(bytes, what);
    if (!c) return c.error();
    return AnyCheckpoint(std::move(*c));
  }
  auto c = decode<float>(bytes, what);  // F32, or a file it refuses
  if (!c) return c.error();
  return AnyCheckpoint(std::move(*c));
}

}  // namespace nl_store
