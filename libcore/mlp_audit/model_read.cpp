// read_model, check_jax_model (model_read.hpp).
#include "mlp_audit/model_read.hpp"

#include <string>
#include <utility>
#include <vector>

namespace mlp_audit {
namespace model_read_detail {  // named: the unity build shares one anonymous namespace

using JsonFields = common::JsonViewFields;

class ModelReader : public FieldReader {
 public:
  explicit ModelReader(const FieldReader& at) : FieldReader(at) {}

  common::Result<Layer> layer(const View& obj, const std::string& path) const {
    JsonFields f = fields(obj, path);
    if (auto s = f.only({"in", "out", "layer_norm", "activation", "negative_slope", "dropout", "dropout_keep"}); !s.ok()) return s.error();
    Layer l;
    for (auto [key, field] : {std::pair{"in", &l.in}, std::pair{"out", &l.out}}) {
      auto v = f.unsigned_int(key);
      if (!v.ok()) return v.error();
      if (*v == 0 || *v > kMaxWidth) return f.error(key, "must be in [1, " + std::to_string(kMaxWidth) + "]");
      *field = *v;
    }
    auto a = pick<Activation>(f, "activation", {{"identity", Activation::identity}, {"relu", Activation::relu},
                                               {"leaky_relu", Activation::leaky_relu}, {"sigmoid", Activation::sigmoid},
                                               {"tanh", Activation::tanh}, {"silu", Activation::silu},
                                               {"gelu", Activation::gelu}, {"gelu_tanh", Activation::gelu_tanh}});
    if (!a.ok()) return a.error();
    l.activation = *a;
    if ((l.activation == Activation::leaky_relu) != f.has("negative_slope")) {
      return f.error("negative_slope", "is present exactly when the activation is leaky_relu");
    }
    if (f.has("negative_slope")) {
      auto s = finite(f, "negative_slope", 0, 1);
      if (!s.ok()) return s.error();
      l.negative_slope = *s;
    }
    if (f.has("layer_norm")) {
      auto n = f.object("layer_norm");
      if (!n.ok()) return n.error();
      JsonFields nf = fields(*n, f.pointer("layer_norm"));
      if (auto s = nf.only({"eps", "elementwise_affine", "variance"}); !s.ok()) return s.error();
      auto eps = finite(nf, "eps", 0, 1);
      if (!eps.ok()) return eps.error();
      auto affine = nf.boolean("elementwise_affine");
      if (!affine.ok()) return affine.error();
      l.norm = LayerNorm{*eps, *affine};
      if (nf.has("variance")) {
        auto form = pick<NormForm>(nf, "variance", {{"two_pass", NormForm::jax_two_pass}});
        if (!form.ok()) return form.error();
        l.norm->form = *form;
      }
    }
    if (auto s = dropout(f, l); !s.ok()) return s.error();
    return l;
  }

  // "dropout": nn.Dropout's p (the probability of dropping); "dropout_keep": stax.Dropout's rate
  // (the probability of keeping). At most one.
  common::Status dropout(const JsonFields& f, Layer& l) const {
    if (f.has("dropout") && f.has("dropout_keep")) return f.error("dropout_keep", "and dropout: at most one of them");
    for (const char* key : {"dropout", "dropout_keep"}) {
      if (!f.has(key)) continue;
      auto p = finite(f, key, 0, 1);
      if (!p.ok()) return p.error();
      if (!(*p > 0 && *p < 1)) return f.error(key, "must be in (0, 1) (absent for no dropout)");
      l.dropout = *p;
      l.dropout_keeps = std::string(key) == "dropout_keep";
    }
    return {};
  }

  common::Status optimizer(const View& obj, Optimizer& o) const {
    JsonFields f = fields(obj, "/model/optimizer");
    auto kind = pick<OptimizerKind>(f, "kind", {{"sgd", OptimizerKind::sgd}, {"adam", OptimizerKind::adam}, {"adamw", OptimizerKind::adamw},
                                               {"jax_sgd", OptimizerKind::jax_sgd}, {"jax_momentum", OptimizerKind::jax_momentum},
                                               {"jax_nesterov", OptimizerKind::jax_nesterov}, {"jax_adam", OptimizerKind::jax_adam}});
    if (!kind.ok()) return kind.error();
    o.kind = *kind;
    if (is_jax(o.kind)) return jax_optimizer(f, o);
    const bool sgd = o.kind == OptimizerKind::sgd;
    auto s = sgd ? f.only({"kind", "lr", "weight_decay", "momentum", "dampening", "nesterov"})
                 : f.only({"kind", "lr", "weight_decay", "beta1", "beta2", "eps", "amsgrad"});
    if (!s.ok()) return s.error();
    std::vector<std::pair<const char*, double*>> nums{{"lr", &o.lr}, {"weight_decay", &o.weight_decay}};
    if (sgd) nums.insert(nums.end(), {{"momentum", &o.momentum}, {"dampening", &o.dampening}});
    else nums.insert(nums.end(), {{"beta1", &o.beta1}, {"beta2", &o.beta2}, {"eps", &o.eps}});
    if (auto n = numbers(f, nums); !n.ok()) return n.error();
    auto flag = f.boolean(sgd ? "nesterov" : "amsgrad");
    if (!flag.ok()) return flag.error();
    (sgd ? o.nesterov : o.amsgrad) = *flag;
    if (!sgd && (o.beta1 >= 1 || o.beta2 >= 1)) return f.error(o.beta1 >= 1 ? "beta1" : "beta2", "must be below 1");
    return {};
  }

  // CrossEntropyLoss's label_smoothing and class weights, BCEWithLogitsLoss's pos_weight (fp32
  // values, written exactly).
  common::Status loss_options(const JsonFields& lf, Model& m) const {
    for (const char* key : {"label_smoothing", "weight", "ignore_index"}) {
      if (lf.has(key) && m.loss != LossKind::cross_entropy) return lf.error(key, "is for cross_entropy only");
    }
    if (lf.has("ignore_index")) {
      auto k = lf.signed_int("ignore_index");
      if (!k.ok()) return k.error();
      // Targets are recorded as fp32 values: an index past 2^24 would not compare exactly.
      if (*k <= -(std::int64_t{1} << 24) || *k >= (std::int64_t{1} << 24)) {
        return lf.error("ignore_index", "must be within (-2^24, 2^24): targets are fp32 values");
      }
      m.ignore_index = *k;
    }
    if (lf.has("pos_weight") && m.loss != LossKind::bce_with_logits) return lf.error("pos_weight", "is for bce_with_logits only");
    if (lf.has("label_smoothing")) {
      auto e = finite(lf, "label_smoothing", 0, 1);
      if (!e.ok()) return e.error();
      m.label_smoothing = *e;
    }
    if (lf.has("weight")) {
      if (auto s = fp32_list(lf, "weight", m.layers.back().out, m.class_weight); !s.ok()) return s.error();
    }
    if (lf.has("pos_weight")) return fp32_list(lf, "pos_weight", m.layers.back().out, m.pos_weight);
    return {};
  }

  // One fp32 value per output of the last layer.
  common::Status fp32_list(const JsonFields& lf, const char* key, std::size_t n, std::vector<float>& out) const {
    auto w = lf.array(key);
    if (!w.ok()) return w.error();
    if (w->size() != n) return lf.error(key, "must hold one value per output of the last layer");
    return fp32_entries(lf, key, *w, out);
  }

  // What the JAX writer (apps/bp/extract/jax_mlp.py) does not write is refused in a jax receipt:
  // CrossEntropyLoss's ignore_index, torch's LayerNorm and Dropout conventions and schedulers. Its
  // losses (cross_entropy with label_smoothing and class weights, mse, half_squared_error,
  // bce_with_logits with pos_weight) are written in torch's operation order, jax.grad's backward
  // of them within loss.cpp's bounds (bce_with_logits's is torch's formula, a custom_vjp); every activation has JAX's formulas (jax_activation.cpp), LayerNorm and
  // Dropout JAX's conventions (layer_conventions).
  common::Status jax_model(const View& obj, const Model& m) const {
    auto layer_obj = obj.find("layers")->elements().begin();
    for (std::size_t i = 0; i < m.layers.size(); ++i, ++layer_obj) {
      const JsonFields lf = fields(*layer_obj, common::json_child_path("/model/layers", i));
      if (auto s = layer_conventions(lf, m.layers[i], true); !s.ok()) return s;
    }
    const JsonFields lf = fields(*obj.find("loss"), "/model/loss");
    if (lf.has("ignore_index")) return lf.error("ignore_index", "is PyTorch-only; not in a jax receipt");
    if (m.scheduler) return fields(obj, "/model").error("scheduler", "is PyTorch-only (torch.optim.lr_scheduler); not in a jax receipt");
    return {};
  }

  // Each trainer's LayerNorm and Dropout conventions (model.hpp): jax receipts name JAX's, torch's torch's.
  common::Status layer_conventions(const JsonFields& lf, const Layer& l, bool jax) const {
    if (l.norm && (l.norm->form == NormForm::jax_two_pass) != jax) {
      return jax ? lf.error("layer_norm", "in a jax receipt must be jax_mlp.LayerNorm's (variance \"two_pass\")")
                 : lf.error("layer_norm", "has variance \"two_pass\" (jax_mlp.LayerNorm's); not in a torch receipt");
    }
    if (l.dropout != 0 && l.dropout_keeps != jax) {
      return jax ? lf.error("dropout", "is nn.Dropout's p; a jax receipt records stax.Dropout's keep rate as dropout_keep")
                 : lf.error("dropout_keep", "is stax.Dropout's keep rate; not in a torch receipt");
    }
    return {};
  }

  common::Status torch_model(const View& obj, const Model& m) const {
    auto layer_obj = obj.find("layers")->elements().begin();
    for (std::size_t i = 0; i < m.layers.size(); ++i, ++layer_obj) {
      if (auto s = layer_conventions(fields(*layer_obj, common::json_child_path("/model/layers", i)), m.layers[i], false); !s.ok()) return s;
    }
    return {};
  }

  // jax.example_libraries.optimizers: sgd(lr), momentum|nesterov(lr, mass), adam(lr, b1, b2, eps).
  common::Status jax_optimizer(const JsonFields& f, Optimizer& o) const {
    std::vector<std::pair<const char*, double*>> nums{{"lr", &o.lr}};
    common::Status s;
    if (o.kind == OptimizerKind::jax_sgd) {
      s = f.only({"kind", "lr"});
    } else if (o.kind == OptimizerKind::jax_adam) {
      s = f.only({"kind", "lr", "beta1", "beta2", "eps"});
      nums.insert(nums.end(), {{"beta1", &o.beta1}, {"beta2", &o.beta2}, {"eps", &o.eps}});
    } else {
      s = f.only({"kind", "lr", "mass"});
      nums.emplace_back("mass", &o.mass);
    }
    if (!s.ok()) return s.error();
    if (auto n = numbers(f, nums); !n.ok()) return n.error();
    if (o.kind == OptimizerKind::jax_adam && (o.beta1 >= 1 || o.beta2 >= 1)) return f.error(o.beta1 >= 1 ? "beta1" : "beta2", "must be below 1");
    return {};
  }

  // Each key's finite number into its field: rates, eps and decay up to 1e6, the rest up to 1.
  common::Status numbers(const JsonFields& f, const std::vector<std::pair<const char*, double*>>& nums) const {
    for (auto [key, field] : nums) {
      const std::string k = key;
      auto v = finite(f, key, 0, k == "lr" || k == "eps" || k == "weight_decay" ? 1e6 : 1);
      if (!v.ok()) return v.error();
      *field = *v;
    }
    return {};
  }

  common::Status model(const View& obj, Model& m) const {
    JsonFields f = fields(obj, "/model");
    if (auto s = f.only({"kind", "layers", "loss", "optimizer", "scheduler"}); !s.ok()) return s.error();
    auto kind = f.string("kind");
    if (!kind.ok()) return kind.error();
    if (*kind != "mlp") return f.error("kind", "expected \"mlp\" (bp verify tensor reads MLP receipts; nltrain's go to bp verify nltrain)");
    auto layers = f.array("layers");
    if (!layers.ok()) return layers.error();
    if (layers->size() == 0 || layers->size() > kMaxLayers) return f.error("layers", "must hold 1 to " + std::to_string(kMaxLayers) + " layers");
    std::size_t i = 0;
    for (const View layer_obj : layers->elements()) {
      const std::string at = common::json_child_path("/model/layers", i);
      auto l = layer(layer_obj, at);
      if (!l.ok()) return l.error();
      if (i++ > 0 && l->in != m.layers.back().out) return fields(layer_obj, at).error("in", "differs from the previous layer's out");
      m.layers.push_back(*l);
    }
    auto loss = f.object("loss");
    if (!loss.ok()) return loss.error();
    JsonFields lf = fields(*loss, "/model/loss");
    if (auto s = lf.only({"kind", "reduction", "label_smoothing", "weight", "pos_weight", "ignore_index"}); !s.ok()) {
      return s.error();
    }
    auto lk = pick<LossKind>(lf, "kind", {{"cross_entropy", LossKind::cross_entropy}, {"mse", LossKind::mse},
                                          {"half_squared_error", LossKind::half_squared_error},
                                          {"bce_with_logits", LossKind::bce_with_logits}});
    if (!lk.ok()) return lk.error();
    m.loss = *lk;
    auto red = pick<Reduction>(lf, "reduction", {{"mean", Reduction::mean}, {"sum", Reduction::sum}});
    if (!red.ok()) return red.error();
    m.reduction = *red;
    if (auto s = loss_options(lf, m); !s.ok()) return s.error();
    auto opt = f.object("optimizer");
    if (!opt.ok()) return opt.error();
    if (auto s = optimizer(*opt, m.optimizer); !s.ok()) return s.error();
    if (!f.has("scheduler")) return {};
    auto sched = f.object("scheduler");
    if (!sched.ok()) return sched.error();
    if (auto k = sched->find("kind"); k && k->is_string() && k->string().starts_with("jax_")) {
      if (!is_jax(m.optimizer.kind)) return f.error("scheduler", "is a jax schedule; the optimizer is not one of jax's");
      m.jax_schedule.emplace();
      return read_jax_schedule(*this, *sched, m.optimizer, *m.jax_schedule);
    }
    m.scheduler.emplace();
    return read_scheduler(*this, *sched, *m.scheduler);
  }
};

}  // namespace model_read_detail

common::Status read_model(const FieldReader& at, const View& obj, Model& m) { return model_read_detail::ModelReader(at).model(obj, m); }

common::Status check_jax_model(const FieldReader& at, const View& obj, const Model& m) {
  return model_read_detail::ModelReader(at).jax_model(obj, m);
}

common::Status check_torch_model(const FieldReader& at, const View& obj, const Model& m) {
  return model_read_detail::ModelReader(at).torch_model(obj, m);
}

}  // namespace mlp_audit
