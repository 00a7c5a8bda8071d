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

Json model_json(const nl::MagConfig& cfg, const nl::AdamWConfig& opt, bool fp64) {
  Json m{{"kind", kModelKind}, {"config", nl::config_to_json(cfg)}, {"optimizer", optimizer_json(opt)}};
  if (fp64) m["precision"] = "fp64";  // absent for fp32: those receipts and digests stay as they were
  return m;
}

std::string model_digest(const nl::MagConfig& cfg, const nl::AdamWConfig& opt, bool fp64) {
  return common::sha256_hex(model_json(cfg, opt, fp64).dump());
}

namespace {

// Tensors are most of a receipt's bytes: written straight into the text (base64 needs no JSON
// escaping), with the bytes nlohmann's dump would give the same structure.
// data_at: null, encode the data; else record where each data string's text starts, leave it empty.
void append_tensors(std::string& out, const std::vector<TensorEntry>& ts, std::vector<std::size_t>* data_at) {
  out += '[';
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const TensorEntry& e = ts[i];
    if (i > 0) out += ',';
    out += "{\"name\":";
    out += Json(e.name).dump();
    out += e.dtype == Dtype::f32 ? ",\"dtype\":\"f32\",\"shape\":" : ",\"dtype\":\"f64\",\"shape\":";
    out += Json(e.shape).dump();
    out += ",\"sha256\":\"";
    out += e.sha256;
    out += '"';
    if (e.bytes) {
      out += ",\"data\":\"";
      if (data_at != nullptr) {
        data_at->push_back(out.size());
      } else {
        out += common::encode_base64(*e.bytes);
      }
      out += '"';
    }
    out += '}';
  }
  out += ']';
}

void append_section(std::string& out, const StateSection& s, std::vector<std::size_t>* data_at) {
  const Counters& c = s.counters;
  out += "{\"counters\":";
  out += Json{{"step", c.step}, {"adam_tau", c.adam_tau}, {"adam_tau_level", c.adam_tau_level},
              {"error_buffer_counts", c.error_buffer_counts}}
             .dump();
  out += ",\"tensors\":";
  append_tensors(out, s.tensors, data_at);
  out += '}';
}

std::string write(const Receipt& r, std::vector<std::size_t>* data_at) {
  Json model = model_json(r.cfg, r.opt, r.fp64);
  model["sha256"] = r.model_sha256;
  Json step{{"n", r.step}, {"chunk", r.chunk}, {"offset", r.offset}, {"context_reset", r.context_reset}};
  if (r.tokens) step["tokens"] = Json{{"ids", r.tokens->ids}, {"targets", r.tokens->targets}};
  step["pulse"] = r.pulse;
  step["lr"] = r.lr;
  // fp32: the shortest decimal of the float; fp64: of the double (both read back exactly).
  auto value = [&](double v) { return r.fp64 ? Json(v) : common::float_json(static_cast<float>(v)); };
  step["loss"] = value(r.loss);
  step["grad_norm"] = r.grad_norm;
  step["clip_scale"] = r.clip_scale ? value(*r.clip_scale) : Json(nullptr);
  Json data{{"sha256", r.data_sha256}, {"bytes", r.data_bytes}};
  // absent for bytes: a byte-level run's receipts stay as they were
  if (r.data_format != nl::TokenFormat::bytes) data["format"] = nl::token_format_name(r.data_format);
  Json kernels{{"gradient_path", r.gradient_path}, {"blas", r.blas}};
  if (!r.device.empty()) kernels["device"] = r.device;  // absent for nl's own code: those receipts stay as they were
  Json head{{"format", kReceiptFormat},
            {"version", kReceiptVersion},
            {"trainer", {{"name", "nltrain"}, {"version", r.trainer_version}}},
            {"model", std::move(model)},
            {"data", data},
            {"kernels", kernels},
            {"receipt",
             {{"index", r.index}, {"every", r.every}, {"previous_sha256", r.previous_sha256 ? Json(*r.previous_sha256) : Json(nullptr)}}},
            {"step", std::move(step)}};
  std::string out = head.dump();
  out.pop_back();  // the closing brace: the sections follow
  std::size_t bytes = 0;
  for (const auto* ts : {&r.gradients, &r.after.tensors}) {
    for (const TensorEntry& e : *ts) bytes += e.bytes ? e.bytes->size() * 4 / 3 + 200 : 200;
  }
  out.reserve(out.size() + 3 * bytes);
  if (r.before) {
    out += ",\"before\":";
    append_section(out, *r.before, data_at);
  }
  out += ",\"gradients\":{\"tensors\":";
  append_tensors(out, r.gradients, data_at);
  out += "},\"after\":";
  append_section(out, r.after, data_at);
  out += '}';
  return out;
}

}  // namespace

std::string write_receipt(const Receipt& r) { return write(r, nullptr); }

std::string write_receipt_without_data(const Receipt& r, std::vector<std::size_t>& data_at) { return write(r, &data_at); }

}  // namespace nl_audit
