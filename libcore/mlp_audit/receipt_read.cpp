// read_receipt (receipt.hpp): the strict reader of `mlp` step receipts.
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/base64.hpp"
#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "mlp_audit/model_read.hpp"
#include "mlp_audit/receipt.hpp"

namespace mlp_audit {
namespace {

using JsonFields = common::JsonViewFields;
using nl_audit::TensorEntry;

class Reader : public FieldReader {
 public:
  using FieldReader::FieldReader;

  common::Result<TensorEntry> tensor(const View& obj, const std::string& path, const Slot& slot) const {
    JsonFields f = fields(obj, path);
    if (auto s = f.only({"name", "dtype", "shape", "sha256", "data"}); !s.ok()) return s.error();
    TensorEntry e;
    auto name = f.string("name");
    if (!name.ok()) return name.error();
    if (*name != slot.name) return f.error("name", "is \"" + common::excerpt(*name) + "\"; expected \"" + slot.name + "\"");
    e.name = *name;
    auto dtype = f.string("dtype");
    if (!dtype.ok()) return dtype.error();
    if (*dtype != "f32") return f.error("dtype", "expected \"f32\"");
    auto shape = f.array("shape");
    if (!shape.ok()) return shape.error();
    const common::JsonReader r(file_, line_, common::JsonReader::Dialect::quoting);
    for (const View dim : shape->elements()) {
      auto v = r.unsigned_integer(dim, common::json_child_path(f.pointer("shape"), e.shape.size()));
      if (!v.ok()) return v.error();
      e.shape.push_back(*v);
    }
    if (e.shape != slot.shape) return f.error("shape", "does not match the model's shape for " + slot.name);
    auto sha = f.string("sha256");
    if (!sha.ok()) return sha.error();
    e.sha256 = *sha;
    auto text = f.string("data");
    if (!text.ok()) return text.error();
    auto bytes = common::decode_base64(*text);
    if (!bytes) return f.error("data", "is not canonical base64");
    if (bytes->size() != e.count() * sizeof(float)) {
      return f.error("data", "holds " + std::to_string(bytes->size()) + " bytes; shape needs " + std::to_string(e.count() * sizeof(float)));
    }
    e.bytes = std::move(*bytes);
    const std::span<const float> vals(reinterpret_cast<const float*>(e.bytes->data()), e.count());
    for (std::size_t i = 0; i < vals.size(); ++i) {
      if (!std::isfinite(vals[i])) return f.error("data", "entry " + std::to_string(i) + " is not finite");
    }
    if (nl_audit::f32_digest(vals) != e.sha256) return f.error("sha256", "does not match the tensor's data");
    return e;
  }

  common::Result<std::vector<TensorEntry>> section(const JsonFields& parent, const char* key, const std::vector<Slot>& slots) const {
    auto obj = parent.object(key);
    if (!obj.ok()) return obj.error();
    JsonFields f = fields(*obj, parent.pointer(key));
    if (auto s = f.only({"tensors"}); !s.ok()) return s.error();
    auto arr = f.array("tensors");
    if (!arr.ok()) return arr.error();
    if (arr->size() != slots.size()) {
      return f.error("tensors", "holds " + std::to_string(arr->size()) + " tensors; expected " + std::to_string(slots.size()));
    }
    std::vector<TensorEntry> out;
    auto item = arr->elements().begin();
    for (std::size_t i = 0; i < slots.size(); ++i, ++item) {
      auto t = tensor(*item, common::json_child_path(f.pointer("tensors"), i), slots[i]);
      if (!t.ok()) return t.error();
      out.push_back(std::move(*t));
    }
    return out;
  }

  common::Result<Receipt> receipt(const View& doc) const {
    JsonFields f = fields(doc, "");
    if (auto s = f.only({"format", "version", "trainer", "model", "receipt", "step", "batch", "before", "gradients", "after"}); !s.ok()) {
      return s.error();
    }
    auto format = f.string("format");
    if (!format.ok()) return format.error();
    if (*format != "tensor-step") return f.error("format", "expected \"tensor-step\"");
    auto version = f.string("version");
    if (!version.ok()) return version.error();
    if (*version != kVersion) return f.error("version", "expected \"0.2.0\" (MLP receipts)");
    Receipt r;
    auto trainer = f.object("trainer");
    if (!trainer.ok()) return trainer.error();
    JsonFields tf = fields(*trainer, "/trainer");
    if (auto s = tf.only({"name", "version"}); !s.ok()) return s.error();
    auto tname = tf.string("name");
    if (!tname.ok()) return tname.error();
    if (*tname != "pytorch" && *tname != "jax") return tf.error("name", "expected \"pytorch\" or \"jax\"");
    auto tver = tf.string("version");
    if (!tver.ok()) return tver.error();
    r.trainer_version = *tver;
    auto model_obj = f.object("model");
    if (!model_obj.ok()) return model_obj.error();
    if (auto s = read_model(*this, *model_obj, r.model); !s.ok()) return s.error();
    if (is_jax(r.model.optimizer.kind) != (*tname == "jax")) {
      return fields(*model_obj, "/model/optimizer").error("kind", *tname == "jax" ? "must be one of jax's (jax_sgd, jax_momentum, jax_nesterov, jax_adam) in a receipt of trainer \"jax\""
                                                                                   : "is one of jax's; the trainer is \"" + *tname + "\"");
    }
    if (*tname == "jax") {
      if (auto s = check_jax_model(*this, *model_obj, r.model); !s.ok()) return s.error();
    } else if (auto s = check_torch_model(*this, *model_obj, r.model); !s.ok()) {
      return s.error();
    }
    r.model_text = common::dump_json(*model_obj);

    auto rec = f.object("receipt");
    if (!rec.ok()) return rec.error();
    JsonFields rf = fields(*rec, "/receipt");
    if (auto s = rf.only({"index", "previous_sha256"}); !s.ok()) return s.error();
    auto index = rf.unsigned_int("index");
    if (!index.ok()) return index.error();
    r.index = *index;
    if (!rf.has("previous_sha256")) return rf.error("previous_sha256", "missing (null on the first receipt)");
    if (!rec->find("previous_sha256")->is_null()) {
      auto p = rf.string("previous_sha256");
      if (!p.ok()) return p.error();
      r.previous_sha256 = *p;
    }
    if ((r.index == 0) != !r.previous_sha256) return rf.error("previous_sha256", "is null exactly on the first receipt (index 0)");

    auto st = f.object("step");
    if (!st.ok()) return st.error();
    JsonFields sf = fields(*st, "/step");
    if (auto s = sf.only({"n", "optimizer_step", "batch", "lr", "last_epoch", "loss", "clip"}); !s.ok()) return s.error();
    for (auto [key, field] : {std::pair{"n", &r.n}, std::pair{"optimizer_step", &r.optimizer_step}, std::pair{"batch", &r.batch}}) {
      auto v = sf.unsigned_int(key);
      if (!v.ok()) return v.error();
      *field = *v;
    }
    if (r.optimizer_step == 0) return sf.error("optimizer_step", "must be at least 1 (torch's step count after the update)");
    if (r.model.jax_schedule && r.optimizer_step > kMaxJaxScheduleStep) {
      return sf.error("optimizer_step", "must be at most 2^24 with a jax schedule (an int32 step index is exact in fp32 below it)");
    }
    if (r.batch == 0 || r.batch > kMaxWidth) return sf.error("batch", "must be in [1, " + std::to_string(kMaxWidth) + "]");
    auto lr = finite(sf, "lr", 0, 1e6);
    if (!lr.ok()) return lr.error();
    r.lr = *lr;
    if (sf.has("last_epoch") != r.model.scheduler.has_value()) {
      return sf.error("last_epoch", "is present exactly when the model has a scheduler");
    }
    if (sf.has("last_epoch")) {
      auto e = sf.unsigned_int("last_epoch");
      if (!e.ok()) return e.error();
      if (*e > kMaxLastEpoch) return sf.error("last_epoch", "must be at most 2^27 (the first receipt replays the schedule from epoch 0)");
      r.last_epoch = *e;
    }
    auto loss = sf.number("loss");
    if (!loss.ok()) return loss.error();
    r.loss = static_cast<float>(*loss);
    if (!std::isfinite(r.loss)) return sf.error("loss", "is beyond the fp32 range");
    if (!sf.has("clip")) return sf.error("clip", "missing (null when the step ran no clip_grad_norm_)");
    if (!st->find("clip")->is_null()) {
      auto c = sf.object("clip");
      if (!c.ok()) return c.error();
      JsonFields cf = fields(*c, "/step/clip");
      if (auto s = cf.only({"max_norm", "total_norm"}); !s.ok()) return s.error();
      auto max_norm = finite(cf, "max_norm", 0, 1e30);
      if (!max_norm.ok()) return max_norm.error();
      if (!(*max_norm > 0)) return cf.error("max_norm", "must be positive");
      auto norm = finite(cf, "total_norm", 0, 3.4e38);
      if (!norm.ok()) return norm.error();
      r.clip = Receipt::Clip{*max_norm, static_cast<float>(*norm)};
    }

    const Model& m = r.model;
    const std::vector<std::size_t> target_shape =
        m.loss == LossKind::cross_entropy ? std::vector<std::size_t>{r.batch} : std::vector<std::size_t>{r.batch, m.layers.back().out};
    std::vector<Slot> batch_slots{{"input", {r.batch, m.layers.front().in}}, {"target", target_shape}};
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
      if (m.layers[l].dropout != 0) batch_slots.push_back({"mask.layers." + std::to_string(l), {r.batch, m.layers[l].out}});
    }
    auto batch = section(f, "batch", batch_slots);
    if (!batch.ok()) return batch.error();
    r.input = std::move((*batch)[0]), r.target = std::move((*batch)[1]);
    for (std::size_t k = 2; k < batch->size(); ++k) {  // Dropout's masks: exactly 0 or 1
      auto v = nl_audit::f32_values((*batch)[k]);
      for (std::size_t i = 0; i < v->size(); ++i) {
        if ((*v)[i] != 0 && (*v)[i] != 1) {
          return common::Error::malformed("entry " + std::to_string(i) + " of " + (*batch)[k].name + " is neither 0 nor 1",
                                          {file_, line_, "/batch/tensors/" + std::to_string(k) + "/data"});
        }
      }
      r.masks.push_back(std::move((*batch)[k]));
    }
    if (m.loss == LossKind::cross_entropy) {
      auto t = nl_audit::f32_values(r.target);
      for (std::size_t i = 0; i < t->size(); ++i) {
        const float c = (*t)[i];
        if (m.ignore_index && c == static_cast<float>(*m.ignore_index)) continue;  // left out of the loss
        if (!(c >= 0 && c < static_cast<float>(m.layers.back().out) && c == std::floor(c))) {
          return common::Error::malformed("target " + std::to_string(i) + " is not a class index of the last layer" +
                                              (m.ignore_index ? " nor the ignore_index" : ""),
                                          {file_, line_, "/batch/tensors/1/data"});
        }
      }
    }
    if (m.loss == LossKind::bce_with_logits) {  // BCEWithLogitsLoss's targets are probabilities
      auto t = nl_audit::f32_values(r.target);
      for (std::size_t i = 0; i < t->size(); ++i) {
        if (!((*t)[i] >= 0 && (*t)[i] <= 1)) {
          return common::Error::malformed("target " + std::to_string(i) + " is outside [0, 1] (bce_with_logits)",
                                          {file_, line_, "/batch/tensors/1/data"});
        }
      }
    }
    std::vector<Slot> state = parameter_slots(m);
    const std::vector<Slot> extra = state_slots(m);
    state.insert(state.end(), extra.begin(), extra.end());
    if (f.has("before")) {  // absent: the receipt continues the previous one (its after)
      auto before = section(f, "before", state);
      if (!before.ok()) return before.error();
      r.before = std::move(*before);
    }
    auto grads = section(f, "gradients", parameter_slots(m));
    if (!grads.ok()) return grads.error();
    r.gradients = std::move(*grads);
    auto after = section(f, "after", state);
    if (!after.ok()) return after.error();
    r.after = std::move(*after);
    return r;
  }

};

}  // namespace

std::vector<Slot> parameter_slots(const Model& m) {
  std::vector<Slot> out;
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    out.push_back({p + "weight", {m.layers[l].out, m.layers[l].in}});
    out.push_back({p + "bias", {m.layers[l].out}});
    if (m.layers[l].norm && m.layers[l].norm->affine) {
      out.push_back({p + "norm.weight", {m.layers[l].out}});
      out.push_back({p + "norm.bias", {m.layers[l].out}});
    }
  }
  return out;
}

std::vector<Slot> state_slots(const Model& m) {
  std::vector<Slot> out;
  const std::vector<Slot> params = parameter_slots(m);
  for (const std::string& s : state_names(m.optimizer))
    for (const Slot& p : params) out.push_back({s + "." + p.name, p.shape});
  return out;
}

common::Result<Receipt> read_receipt(std::string_view line, const std::string& file, std::int64_t line_no) {
  auto doc = common::parse_json_document(std::string(line), {.file = file, .max_bytes = kMaxRecordBytes, .first_line = line_no});
  if (!doc.ok()) return doc.error();
  return Reader(file, line_no).receipt(doc->root());
}

}  // namespace mlp_audit
