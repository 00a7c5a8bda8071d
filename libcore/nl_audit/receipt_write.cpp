// write_receipt and model_digest (receipt.hpp): the canonical text.
#include <nlohmann/json.hpp>

#include "common/base64.hpp"
#include "common/float_json.hpp"
#include "common/sha256.hpp"
#include "nl/state_json.hpp"
#include "nl_audit/receipt.hpp"
#include "nl_audit/receipt_json.hpp"

namespace nl_audit {

using Json = nlohmann::ordered_json;

Json optimizer_json(const nl::AdamWConfig& o) {
  return Json{{"lr", o.lr},       {"beta1", o.beta1},   {"beta2", o.beta2},   {"eps", o.eps}, {"weight_decay", o.weight_decay},
              {"clip", o.clip}, {"warmup", o.warmup}, {"total_steps", o.total_steps}};
}

Json model_json(const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  return Json{{"kind", kModelKind}, {"config", nl::config_to_json(cfg)}, {"optimizer", optimizer_json(opt)}};
}

std::string model_digest(const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  return common::sha256_hex(model_json(cfg, opt).dump());
}

namespace {

Json tensors_json(const std::vector<TensorEntry>& ts) {
  Json a = Json::array();
  for (const TensorEntry& e : ts) {
    Json j{{"name", e.name}, {"dtype", e.dtype == Dtype::f32 ? "f32" : "f64"}, {"shape", e.shape}, {"sha256", e.sha256}};
    if (e.bytes) j["data"] = common::encode_base64(*e.bytes);
    a.push_back(std::move(j));
  }
  return a;
}

Json section_json(const StateSection& s) {
  const Counters& c = s.counters;
  return Json{{"counters",
               {{"step", c.step}, {"adam_tau", c.adam_tau}, {"adam_tau_level", c.adam_tau_level},
                {"error_buffer_counts", c.error_buffer_counts}}},
              {"tensors", tensors_json(s.tensors)}};
}

}  // namespace

std::string write_receipt(const Receipt& r) {
  Json model = model_json(r.cfg, r.opt);
  model["sha256"] = r.model_sha256;
  Json step{{"n", r.step}, {"chunk", r.chunk}, {"offset", r.offset}, {"context_reset", r.context_reset}};
  if (r.tokens) step["tokens"] = Json{{"ids", r.tokens->ids}, {"targets", r.tokens->targets}};
  step["pulse"] = r.pulse;
  step["lr"] = r.lr;
  step["loss"] = common::float_json(r.loss);
  step["grad_norm"] = r.grad_norm;
  step["clip_scale"] = r.clip_scale ? common::float_json(*r.clip_scale) : Json(nullptr);
  Json doc{{"format", kReceiptFormat},
           {"version", kReceiptVersion},
           {"trainer", {{"name", "nltrain"}, {"version", r.trainer_version}}},
           {"model", std::move(model)},
           {"data", {{"sha256", r.data_sha256}, {"bytes", r.data_bytes}}},
           {"kernels", {{"gradient_path", r.gradient_path}, {"blas", r.blas}}},
           {"receipt", {{"index", r.index}, {"every", r.every}, {"previous_sha256", r.previous_sha256 ? Json(*r.previous_sha256) : Json(nullptr)}}},
           {"step", std::move(step)}};
  if (r.before) doc["before"] = section_json(*r.before);
  doc["gradients"] = Json{{"tensors", tensors_json(r.gradients)}};
  doc["after"] = section_json(r.after);
  return doc.dump();
}

}  // namespace nl_audit
