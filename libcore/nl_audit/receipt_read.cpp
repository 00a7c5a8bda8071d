// read_receipt (receipt.hpp): the strict reader.
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/base64.hpp"
#include "common/sha256.hpp"
#include "common/json_document_reader.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "nl/conductor.hpp"
#include "nl/state_json.hpp"
#include "nl_audit/receipt.hpp"
#include "nl_audit/receipt_json.hpp"

namespace nl_audit {
namespace {

// kernels.device: "cpu-launcher" or "cuda:I", I plain decimal without leading zeros (canonical).
bool is_kernel_device(const std::string& d) {
  if (d == "cpu-launcher") return true;
  if (d.rfind("cuda:", 0) != 0 || d.size() == 5 || (d[5] == '0' && d.size() > 6)) return false;
  return d.find_first_not_of("0123456789", 5) == std::string::npos;
}

// The receipt is read as a JsonDocument (8 bytes a value), never as a tree: a line of 12 million
// empty objects costs a few times its size before the reader refuses it.
using View = common::JsonView;
using JsonFields = common::JsonViewFields;

bool is_hex_digest(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

class Reader {
 public:
  Reader(std::string file, std::int64_t line) : file_(std::move(file)), line_(line) {}

  common::Error error(const std::string& path, const std::string& msg) const {
    return common::Error::malformed(msg, {file_, line_, path});
  }
  JsonFields fields(const View& obj, const std::string& path) const { return JsonFields(obj, file_, line_, path); }

  common::Result<std::string> digest(const JsonFields& f, const char* key) const {
    auto s = f.string(key);
    if (!s.ok()) return s.error();
    if (!is_hex_digest(*s)) return f.error(key, "expected a SHA-256 digest (64 lowercase hex digits)");
    return *s;
  }

  common::Result<std::vector<std::uint64_t>> counts(const JsonFields& f, const char* key, std::size_t n) const {
    auto a = f.array(key);
    if (!a.ok()) return a.error();
    if (a->size() != n) return f.error(key, "expected " + std::to_string(n) + " entries, one per level");
    std::vector<std::uint64_t> out;
    const common::JsonReader r(file_, line_, common::JsonReader::Dialect::quoting);
    for (const View e : a->elements()) {
      auto v = r.unsigned_integer(e, common::json_child_path(f.pointer(key), out.size()));
      if (!v.ok()) return v.error();
      out.push_back(*v);
    }
    return out;
  }

  // Tensors laid out as `layout`; with_bytes: every entry must carry data (true), none may
  // (false), or either (nullopt, all alike).
  common::Result<std::vector<TensorEntry>> tensors(View arr, const std::string& path,
                                                   const std::vector<TensorSlot>& layout, std::optional<bool> with_bytes) const {
    if (!arr.is_array()) return error(path, "expected an array of tensors");
    if (arr.size() != layout.size()) {
      return error(path, "holds " + std::to_string(arr.size()) + " tensors; the model has " + std::to_string(layout.size()));
    }
    std::vector<TensorEntry> out;
    auto item = arr.elements().begin();
    for (std::size_t i = 0; i < layout.size(); ++i, ++item) {
      const std::string at = common::json_child_path(path, i);
      JsonFields f = fields(*item, at);
      if (auto s = f.only({"name", "dtype", "shape", "sha256", "data"}); !s.ok()) return s.error();
      TensorEntry e;
      auto name = f.string("name");
      if (!name.ok()) return name.error();
      if (*name != layout[i].name) return f.error("name", "is \"" + common::excerpt(*name) + "\"; expected \"" + layout[i].name + "\"");
      e.name = *name;
      auto dtype = f.string("dtype");
      if (!dtype.ok()) return dtype.error();
      // The model's precision decides the dtype: f32, or f64 for an fp64 run's receipt.
      if (*dtype != (fp64_ ? "f64" : "f32")) {
        return f.error("dtype", fp64_ ? "expected \"f64\" (the model's precision is fp64)" : "expected \"f32\" (nltrain's tensors are fp32)");
      }
      e.dtype = fp64_ ? Dtype::f64 : Dtype::f32;
      auto shape = f.array("shape");
      if (!shape.ok()) return shape.error();
      const common::JsonReader r(file_, line_, common::JsonReader::Dialect::quoting);
      for (const View dim : shape->elements()) {
        auto v = r.unsigned_integer(dim, common::json_child_path(f.pointer("shape"), e.shape.size()));
        if (!v.ok()) return v.error();
        e.shape.push_back(*v);
      }
      if (e.shape != layout[i].shape) return f.error("shape", "does not match the model's shape for " + e.name);
      auto sha = digest(f, "sha256");
      if (!sha.ok()) return sha.error();
      e.sha256 = *sha;
      const bool has = f.has("data");
      const bool first_has = i == 0 ? has : out.front().bytes.has_value();
      const bool want = with_bytes.value_or(first_has);
      if (has != want) return f.error(has ? "data" : "", want ? "missing data (this section carries every tensor's bytes)" : "data not allowed here (compact section)");
      if (has) {
        auto text = f.string("data");
        if (!text.ok()) return text.error();
        auto bytes = common::decode_base64(*text);
        if (!bytes) return f.error("data", "is not canonical base64");
        e.bytes = std::move(*bytes);
        const std::size_t width = fp64_ ? sizeof(double) : sizeof(float);
        if (e.bytes->size() != e.count() * width) {
          return f.error("data", "holds " + std::to_string(e.bytes->size()) + " bytes; shape needs " + std::to_string(e.count() * width));
        }
        if (common::sha256_hex(std::string_view(reinterpret_cast<const char*>(e.bytes->data()), e.bytes->size())) != e.sha256) {
          return f.error("sha256", "does not match the tensor's data");
        }
      }
      out.push_back(std::move(e));
    }
    return out;
  }

  common::Result<StateSection> section(View obj, const std::string& path, const nl::MagConfig& cfg,
                                       std::optional<bool> with_bytes) const {
    JsonFields f = fields(obj, path);
    if (auto s = f.only({"counters", "tensors"}); !s.ok()) return s.error();
    auto c = f.object("counters");
    if (!c.ok()) return c.error();
    JsonFields cf = fields(*c, f.pointer("counters"));
    if (auto s = cf.only({"step", "adam_tau", "adam_tau_level", "error_buffer_counts"}); !s.ok()) return s.error();
    StateSection out;
    auto step = cf.unsigned_int("step");
    if (!step.ok()) return step.error();
    auto tau = cf.unsigned_int("adam_tau");
    if (!tau.ok()) return tau.error();
    auto tau_level = counts(cf, "adam_tau_level", cfg.levels());
    if (!tau_level.ok()) return tau_level.error();
    auto buffer_counts = counts(cf, "error_buffer_counts", cfg.levels());
    if (!buffer_counts.ok()) return buffer_counts.error();
    out.counters = {*step, *tau, std::move(*tau_level), std::move(*buffer_counts)};
    auto t = f.array("tensors");
    if (!t.ok()) return t.error();
    auto ts = tensors(*t, f.pointer("tensors"), state_layout(cfg), with_bytes);
    if (!ts.ok()) return ts.error();
    out.tensors = std::move(*ts);
    return out;
  }

  common::Result<std::vector<std::size_t>> token_list(const JsonFields& f, const char* key, std::size_t n, std::size_t vocab) const {
    auto a = f.array(key);
    if (!a.ok()) return a.error();
    if (a->size() != n) return f.error(key, "holds " + std::to_string(a->size()) + " tokens; expected seq_len=" + std::to_string(n));
    const common::JsonReader r(file_, line_, common::JsonReader::Dialect::quoting);
    std::vector<std::size_t> out;
    for (const View e : a->elements()) {
      auto v = r.integer(e, common::json_child_path(f.pointer(key), out.size()), 0, static_cast<std::int64_t>(vocab) - 1);
      if (!v.ok()) return v.error();
      out.push_back(static_cast<std::size_t>(*v));
    }
    return out;
  }

  // fp32: the float a shortest decimal names; fp64: the double itself (the canonical check
  // refuses any other spelling of either).
  common::Result<double> float_at(const JsonFields& f, const char* key) const {
    auto d = f.number(key);
    if (!d.ok()) return d.error();
    if (fp64_) return *d;
    // The writer spells an fp32 value as its shortest decimal; the canonical check refuses any
    // other spelling, so the float this rounds to is the one that was written.
    const float v = static_cast<float>(*d);
    if (!std::isfinite(v)) return f.error(key, "is beyond the fp32 range");
    return v;
  }

  common::Status step(View obj, const std::string& path, Receipt& r) const {
    JsonFields f = fields(obj, path);
    if (auto s = f.only({"n", "chunk", "offset", "context_reset", "tokens", "pulse", "lr", "loss", "grad_norm", "clip_scale"}); !s.ok()) {
      return s.error();
    }
    for (auto [key, field] : {std::pair{"n", &r.step}, std::pair{"chunk", &r.chunk}, std::pair{"offset", &r.offset}}) {
      auto v = f.unsigned_int(key);
      if (!v.ok()) return v.error();
      *field = *v;
    }
    auto reset = f.boolean("context_reset");
    if (!reset.ok()) return reset.error();
    r.context_reset = *reset;
    if (f.has("tokens")) {
      auto t = f.object("tokens");
      if (!t.ok()) return t.error();
      JsonFields tf = fields(*t, f.pointer("tokens"));
      if (auto s = tf.only({"ids", "targets"}); !s.ok()) return s.error();
      auto ids = token_list(tf, "ids", r.cfg.seq_len, r.cfg.vocab);
      if (!ids.ok()) return ids.error();
      auto targets = token_list(tf, "targets", r.cfg.seq_len, r.cfg.vocab);
      if (!targets.ok()) return targets.error();
      r.tokens = Tokens{std::move(*ids), std::move(*targets)};
    }
    auto pulse = f.array("pulse");
    if (!pulse.ok()) return pulse.error();
    if (pulse->size() != r.cfg.levels()) return f.error("pulse", "expected one entry per level (" + std::to_string(r.cfg.levels()) + ")");
    for (const View b : pulse->elements()) {
      if (!b.is_boolean()) return f.error("pulse", "expected booleans");
      r.pulse.push_back(b.boolean());
    }
    if (!r.pulse.front()) return f.error("pulse", "level 0 is active at every step");
    auto lr = f.number("lr");
    if (!lr.ok()) return lr.error();
    r.lr = *lr;
    auto loss = float_at(f, "loss");
    if (!loss.ok()) return loss.error();
    r.loss = *loss;
    auto norm = f.number("grad_norm");
    if (!norm.ok()) return norm.error();
    if (*norm < 0) return f.error("grad_norm", "is negative");
    r.grad_norm = *norm;
    if (!f.has("clip_scale")) return f.error("clip_scale", "missing (null when the step was not clipped)");
    if (!obj.find("clip_scale")->is_null()) {
      auto s = float_at(f, "clip_scale");
      if (!s.ok()) return s.error();
      r.clip_scale = *s;
    }
    return {};
  }

  common::Result<Receipt> receipt(View doc) const {
    JsonFields f = fields(doc, "");
    if (auto s = f.only({"format", "version", "trainer", "model", "data", "kernels", "receipt", "step", "before", "gradients", "after"});
        !s.ok()) {
      return s.error();
    }
    auto format = f.string("format");
    if (!format.ok()) return format.error();
    if (*format != kReceiptFormat) return f.error("format", "expected \"tensor-step\"");
    auto version = f.string("version");
    if (!version.ok()) return version.error();
    if (*version != kReceiptVersion) return f.error("version", "expected \"0.1.0\" (the version this bp reads)");
    Receipt r;
    auto trainer = f.object("trainer");
    if (!trainer.ok()) return trainer.error();
    JsonFields tf = fields(*trainer, "/trainer");
    if (auto s = tf.only({"name", "version"}); !s.ok()) return s.error();
    auto tname = tf.string("name");
    if (!tname.ok()) return tname.error();
    if (*tname != "nltrain") return tf.error("name", "expected \"nltrain\" (the trainer whose model this bp re-derives)");
    auto tver = tf.string("version");
    if (!tver.ok()) return tver.error();
    r.trainer_version = *tver;

    auto model = f.object("model");
    if (!model.ok()) return model.error();
    JsonFields mf = fields(*model, "/model");
    if (auto s = mf.only({"kind", "config", "optimizer", "precision", "sha256"}); !s.ok()) return s.error();
    if (mf.has("precision")) {
      auto p = mf.string("precision");
      if (!p.ok()) return p.error();
      // fp32 is spelled by the key's absence (one spelling per receipt)
      if (*p != "fp64") return mf.error("precision", "expected \"fp64\" (absent: fp32)");
      r.fp64 = fp64_ = true;
    }
    auto kind = mf.string("kind");
    if (!kind.ok()) return kind.error();
    if (*kind != kModelKind) return mf.error("kind", "expected \"nltrain-mag\"");
    auto cfg_obj = mf.object("config");
    if (!cfg_obj.ok()) return cfg_obj.error();
    auto cfg = nl::parse_config_json(*cfg_obj, "/model/config");
    if (!cfg.ok()) return cfg.error().at_file(file_).at_line(line_);
    r.cfg = std::move(*cfg);
    auto opt_obj = mf.object("optimizer");
    if (!opt_obj.ok()) return opt_obj.error();
    JsonFields of = fields(*opt_obj, "/model/optimizer");
    if (auto s = of.only({"lr", "beta1", "beta2", "eps", "weight_decay", "clip", "warmup", "total_steps"}); !s.ok()) return s.error();
    for (auto [key, field] : {std::pair{"lr", &r.opt.lr}, std::pair{"beta1", &r.opt.beta1}, std::pair{"beta2", &r.opt.beta2},
                              std::pair{"eps", &r.opt.eps}, std::pair{"weight_decay", &r.opt.weight_decay}, std::pair{"clip", &r.opt.clip}}) {
      auto v = of.number(key);
      if (!v.ok()) return v.error();
      *field = *v;
    }
    for (auto [key, field] : {std::pair{"warmup", &r.opt.warmup}, std::pair{"total_steps", &r.opt.total_steps}}) {
      auto v = of.unsigned_int(key);
      if (!v.ok()) return v.error();
      *field = *v;
    }
    auto msha = digest(mf, "sha256");
    if (!msha.ok()) return msha.error();
    r.model_sha256 = *msha;
    if (r.model_sha256 != model_digest(r.cfg, r.opt, r.fp64)) return mf.error("sha256", "does not match the model's configuration");

    auto data = f.object("data");
    if (!data.ok()) return data.error();
    JsonFields df = fields(*data, "/data");
    if (auto s = df.only({"sha256", "bytes", "format"}); !s.ok()) return s.error();
    auto dsha = digest(df, "sha256");
    if (!dsha.ok()) return dsha.error();
    r.data_sha256 = *dsha;
    if (df.has("format")) {
      auto name = df.string("format");
      if (!name.ok()) return name.error();
      const auto format = nl::parse_token_format(*name);
      // bytes is spelled by the key's absence (one spelling per receipt)
      if (!format || *format == nl::TokenFormat::bytes) return df.error("format", "expected \"u16\" or \"u32\"");
      r.data_format = *format;
    }
    auto bytes = df.unsigned_int("bytes");
    if (!bytes.ok()) return bytes.error();
    const std::size_t size = nl::token_size(r.data_format);
    if (*bytes % size != 0) return df.error("bytes", "is not a whole number of " + std::to_string(size) + "-byte tokens");
    if (*bytes / size < r.cfg.seq_len + 1) return df.error("bytes", "is shorter than one chunk (seq_len + 1 tokens)");
    r.data_bytes = *bytes;

    auto kernels = f.object("kernels");
    if (!kernels.ok()) return kernels.error();
    JsonFields kf = fields(*kernels, "/kernels");
    if (auto s = kf.only({"gradient_path", "blas", "device"}); !s.ok()) return s.error();
    auto path = kf.string("gradient_path");
    if (!path.ok()) return path.error();
    if (*path != "tape" && *path != "hand_written") return kf.error("gradient_path", "expected \"tape\" or \"hand_written\"");
    r.gradient_path = *path;
    auto blas = kf.string("blas");
    if (!blas.ok()) return blas.error();
    r.blas = *blas;
    if (kf.has("device")) {
      auto device = kf.string("device");
      if (!device.ok()) return device.error();
      if (!is_kernel_device(*device)) return kf.error("device", "expected \"cpu-launcher\" or \"cuda:I\" (absent for nl's own code)");
      r.device = *device;
    }

    auto rec = f.object("receipt");
    if (!rec.ok()) return rec.error();
    JsonFields rf = fields(*rec, "/receipt");
    if (auto s = rf.only({"index", "every", "previous_sha256"}); !s.ok()) return s.error();
    auto index = rf.unsigned_int("index");
    if (!index.ok()) return index.error();
    r.index = *index;
    auto every = rf.unsigned_int("every");
    if (!every.ok()) return every.error();
    if (*every == 0) return rf.error("every", "must be at least 1");
    r.every = *every;
    if (!rf.has("previous_sha256")) return rf.error("previous_sha256", "missing (null on the first receipt)");
    if (!rec->find("previous_sha256")->is_null()) {
      auto p = digest(rf, "previous_sha256");
      if (!p.ok()) return p.error();
      r.previous_sha256 = *p;
    }
    if ((r.index == 0) != !r.previous_sha256) return rf.error("previous_sha256", "is null exactly on the first receipt (index 0)");

    auto st = f.object("step");
    if (!st.ok()) return st.error();
    if (auto s = step(*st, "/step", r); !s.ok()) return s.error();
    const bool compact = !r.tokens;

    if (f.has("before")) {
      auto b = f.object("before");
      if (!b.ok()) return b.error();
      auto sec = section(*b, "/before", r.cfg, true);
      if (!sec.ok()) return sec.error();
      r.before = std::move(*sec);
    } else if (r.index == 0 || r.every > 1) {
      return f.error("before", "missing: the first receipt, and every receipt of a run audited every k > 1 steps, carries the state before its step");
    }
    auto g = f.object("gradients");
    if (!g.ok()) return g.error();
    JsonFields gf = fields(*g, "/gradients");
    if (auto s = gf.only({"tensors"}); !s.ok()) return s.error();
    auto garr = gf.array("tensors");
    if (!garr.ok()) return garr.error();
    auto grads = tensors(*garr, "/gradients/tensors", gradient_layout(r.cfg, nl::Pulse{r.pulse}), !compact);
    if (!grads.ok()) return grads.error();
    r.gradients = std::move(*grads);
    auto a = f.object("after");
    if (!a.ok()) return a.error();
    auto after = section(*a, "/after", r.cfg, !compact);
    if (!after.ok()) return after.error();
    r.after = std::move(*after);
    return r;
  }

 private:
  std::string file_;
  std::int64_t line_;
  mutable bool fp64_ = false;  // the receipt's precision, once its model is read
};

}  // namespace

namespace {

constexpr std::size_t kSame = ~std::size_t{0};

bool is_base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
}

// The first byte of `line` that differs from `canonical`, where `canonical` leaves each data
// string empty at the offsets `data_at` and the line may hold base64 characters there; kSame
// when none does.
std::size_t first_difference(std::string_view canonical, const std::vector<std::size_t>& data_at, std::string_view line) {
  std::size_t c = 0, l = 0;  // positions in canonical and in line
  auto same_until = [&](std::size_t c_end) {
    const std::size_t n = c_end - c;
    if (line.size() - l < n || canonical.substr(c, n) != line.substr(l, n)) {
      std::size_t k = 0;
      while (k < n && l + k < line.size() && canonical[c + k] == line[l + k]) ++k;
      return l + k;
    }
    c += n, l += n;
    return kSame;
  };
  for (const std::size_t at : data_at) {
    if (const std::size_t d = same_until(at); d != kSame) return d;
    while (l < line.size() && is_base64_char(line[l])) ++l;
  }
  if (const std::size_t d = same_until(canonical.size()); d != kSame) return d;
  return l == line.size() ? kSame : l;
}

}  // namespace

common::Result<Receipt> read_receipt(std::string_view line, const std::string& file, std::int64_t line_no) {
  auto doc = common::parse_json_document(std::string(line), {.file = file, .max_bytes = kMaxReceiptLineBytes, .first_line = line_no});
  if (!doc.ok()) return doc.error();
  const Reader reader(file, line_no);
  auto r = reader.receipt(doc->root());
  if (!r.ok()) return r.error();
  // One spelling per receipt: a duplicated key, whitespace, another number spelling or escape
  // would let two texts (and two digests) stand for one step. The tensors' data strings already
  // decoded as canonical base64 to their bytes; they only have to be plain in the line (no
  // escapes: base64 characters up to the closing quote), the rest must be the writer's bytes.
  std::vector<std::size_t> data_at;
  const std::string canonical = write_receipt_without_data(*r, data_at);
  if (const std::size_t at = first_difference(canonical, data_at, line); at != kSame) {
    return reader.error("", "not in canonical form (the writer's bytes differ from byte " + std::to_string(at) + ")");
  }
  return r;
}

}  // namespace nl_audit
