#include "nl/checkpoint.hpp"

#include <bit>
#include <cstring>

#include "common/sha256.hpp"

namespace nl {
namespace {

static_assert(std::endian::native == std::endian::little, "checkpoint encoding assumes a little-endian host");

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) { raw(&v, 4); }
  void u64(std::uint64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void floats(const std::vector<float>& v) {
    u64(v.size());
    raw(v.data(), v.size() * sizeof(float));
  }
  void text(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }
  std::string& bytes() { return out_; }

 private:
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  bool u8(std::uint8_t& v) { return raw(&v, 1); }
  bool u32(std::uint32_t& v) { return raw(&v, 4); }
  bool u64(std::uint64_t& v) { return raw(&v, 8); }
  bool size(std::size_t& v) {
    std::uint64_t x = 0;
    if (!u64(x)) return false;
    v = static_cast<std::size_t>(x);
    return true;
  }
  bool f64(double& v) { return raw(&v, 8); }
  bool floats(std::vector<float>& v) {
    std::uint64_t n = 0;
    if (!u64(n) || n > (b_.size() - pos_) / sizeof(float)) return false;
    v.resize(n);
    return raw(v.data(), n * sizeof(float));
  }
  bool text(std::string& s) {
    std::uint64_t n = 0;
    if (!u64(n) || n > b_.size() - pos_) return false;
    s.assign(b_.substr(pos_, n));
    pos_ += n;
    return true;
  }
  [[nodiscard]] bool done() const { return pos_ == b_.size(); }

 private:
  bool raw(void* p, std::size_t n) {
    if (n > b_.size() - pos_) return false;
    std::memcpy(p, b_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  std::string_view b_;
  std::size_t pos_ = 0;
};

void write_config(Writer& w, const MagConfig& c) {
  for (std::size_t v : {c.vocab, c.d, c.heads, c.seq_len, c.window}) w.u64(v);
  w.u8(static_cast<std::uint8_t>(c.rule));
  const RuleConfig& r = c.rule_cfg;
  for (std::size_t v : {r.d, r.d_h, r.m, r.d_c}) w.u64(v);
  for (double v : {r.lambda_k, r.lambda_v, r.lambda_2, r.lambda_loc, r.huber_delta, r.p, r.a_s}) w.f64(v);
  w.u8(static_cast<std::uint8_t>(r.lattice_variant));
  w.u64(c.periods.size());
  for (std::size_t p : c.periods) w.u64(p);
  w.u64(c.seed);
  w.u8(static_cast<std::uint8_t>(c.schedule));
}

bool read_config(Reader& r, MagConfig& c, std::uint32_t version) {
  for (std::size_t* v : {&c.vocab, &c.d, &c.heads, &c.seq_len, &c.window})
    if (!r.size(*v)) return false;
  std::uint8_t rule = 0, variant = 0;
  if (!r.u8(rule) || rule > static_cast<std::uint8_t>(RuleKind::atlas)) return false;
  c.rule = static_cast<RuleKind>(rule);
  RuleConfig& rc = c.rule_cfg;
  for (std::size_t* v : {&rc.d, &rc.d_h, &rc.m, &rc.d_c})
    if (!r.size(*v)) return false;
  for (double* v : {&rc.lambda_k, &rc.lambda_v, &rc.lambda_2, &rc.lambda_loc, &rc.huber_delta, &rc.p, &rc.a_s})
    if (!r.f64(*v)) return false;
  if (!r.u8(variant) || variant > static_cast<std::uint8_t>(LatticeVariant::similarity)) return false;
  rc.lattice_variant = static_cast<LatticeVariant>(variant);
  std::size_t k = 0;
  if (!r.size(k) || k > 64) return false;
  c.periods.resize(k);
  for (std::size_t& p : c.periods)
    if (!r.size(p)) return false;
  if (!r.u64(c.seed)) return false;
  c.schedule = FrequencySchedule::fixed;
  if (version < 2) return true;  // version 1 predates schedules: every run it holds is fixed
  std::uint8_t schedule = 0;
  if (!r.u8(schedule) || schedule > static_cast<std::uint8_t>(FrequencySchedule::learned)) return false;
  c.schedule = static_cast<FrequencySchedule>(schedule);
  return true;
}

}  // namespace

std::string encode_checkpoint(const Checkpoint& c) {
  const TrainerState& s = c.state;
  Writer body;
  write_config(body, s.cfg);
  for (double v : {s.opt.lr, s.opt.beta1, s.opt.beta2, s.opt.eps, s.opt.weight_decay, s.opt.clip}) body.f64(v);
  body.u64(s.opt.warmup);
  body.u64(s.opt.total_steps);
  body.floats(s.params.to_flat());
  body.floats(s.adam.m.to_flat());
  body.floats(s.adam.v.to_flat());
  body.u64(s.adam.tau);
  body.u64(s.adam.tau_level.size());
  for (std::uint64_t t : s.adam.tau_level) body.u64(t);
  body.u64(s.step);
  auto write_context = [&](const ContextMemory<float>& m) {
    body.u64(m.levels.size());
    for (const auto& l : m.levels) body.floats(l);
  };
  write_context(s.context);
  const bool batched = !s.more_contexts.empty();
  if (batched) {
    body.u64(s.more_contexts.size());
    for (const ContextMemory<float>& m : s.more_contexts) write_context(m);
  }
  body.u64(s.buffer_sums.size());
  for (std::size_t l = 0; l < s.buffer_sums.size(); ++l) {
    body.floats(s.buffer_sums[l].to_flat());
    body.u64(s.buffer_counts[l]);
  }
  body.text(c.run);

  Writer file;
  file.bytes().append(kCheckpointMagic);
  file.u32(batched ? kCheckpointVersion : kUnbatchedCheckpointVersion);
  file.u64(body.bytes().size());
  file.bytes().append(body.bytes());
  const common::Sha256Digest digest = common::sha256(std::string_view(file.bytes()));
  file.bytes().append(reinterpret_cast<const char*>(digest.data()), digest.size());
  return std::move(file.bytes());
}

common::Result<Checkpoint> decode_checkpoint(std::string_view bytes, const std::string& what) {
  auto bad = [&](const std::string& msg) { return common::Error::malformed(what + ": " + msg); };
  constexpr std::size_t kHeader = 8 + 4 + 8, kDigest = 32;
  if (bytes.size() < kCheckpointMagic.size() || bytes.substr(0, kCheckpointMagic.size()) != kCheckpointMagic) {
    return bad("not an nltrain checkpoint (no \"NLTRCKPT\" magic)");
  }
  if (bytes.size() < kHeader + kDigest) return bad("truncated checkpoint (" + std::to_string(bytes.size()) + " bytes)");
  Reader head(bytes.substr(8, 12));
  std::uint32_t version = 0;
  std::uint64_t body_len = 0;
  (void)head.u32(version);
  (void)head.u64(body_len);
  if (version > kCheckpointVersion) {
    return bad("checkpoint format version " + std::to_string(version) + " is newer than this nltrain reads (" +
               std::to_string(kCheckpointVersion) + "); use a newer nltrain");
  }
  if (version == 0) return bad("checkpoint format version 0 is not valid");
  if (body_len != bytes.size() - kHeader - kDigest) {
    return bad("truncated or extended checkpoint: header says " + std::to_string(body_len + kHeader + kDigest) +
               " bytes, the file has " + std::to_string(bytes.size()));
  }
  const common::Sha256Digest digest = common::sha256(bytes.substr(0, bytes.size() - kDigest));
  if (std::memcmp(digest.data(), bytes.data() + bytes.size() - kDigest, kDigest) != 0) {
    return bad("checksum mismatch: the checkpoint is corrupt");
  }

  Reader r(bytes.substr(kHeader, body_len));
  Checkpoint c;
  TrainerState& s = c.state;
  auto body_bad = [&](const char* field) { return bad(std::string("checkpoint body: bad or missing ") + field); };
  if (!read_config(r, s.cfg, version)) return body_bad("configuration");
  if (common::Status v = validate(s.cfg); !v.ok()) return bad("checkpoint configuration: " + v.error().message());
  for (double* v : {&s.opt.lr, &s.opt.beta1, &s.opt.beta2, &s.opt.eps, &s.opt.weight_decay, &s.opt.clip})
    if (!r.f64(*v)) return body_bad("optimizer settings");
  if (!r.u64(s.opt.warmup) || !r.u64(s.opt.total_steps)) return body_bad("optimizer schedule");
  const std::size_t n = MagParams<float>::zeros(s.cfg).to_flat().size();
  std::vector<float> flat;
  for (auto [name, dst] : {std::pair{"parameters", &s.params}, std::pair{"AdamW m", &s.adam.m},
                           std::pair{"AdamW v", &s.adam.v}}) {
    if (!r.floats(flat) || flat.size() != n) return body_bad(name);
    *dst = MagParams<float>::from_flat(s.cfg, flat);
  }
  std::size_t k = 0;
  if (!r.u64(s.adam.tau) || !r.size(k) || k != s.cfg.levels()) return body_bad("AdamW step counts");
  s.adam.tau_level.resize(k);
  for (std::uint64_t& t : s.adam.tau_level)
    if (!r.u64(t)) return body_bad("AdamW step counts");
  if (!r.u64(s.step)) return body_bad("step");
  auto read_context = [&](ContextMemory<float>& m) {
    if (!r.size(k) || k != s.cfg.levels()) return false;
    m.levels.resize(k);
    for (auto& l : m.levels)
      if (!r.floats(l) || l.size() != state_size(s.cfg.rule, s.cfg.rule_cfg)) return false;
    return true;
  };
  if (!read_context(s.context)) return body_bad("context memory");
  if (version >= 3) {
    std::uint64_t more = 0;
    if (!r.u64(more) || more == 0 || more >= kMaxCheckpointStreams) return body_bad("stream count");
    s.more_contexts.resize(more);
    for (ContextMemory<float>& m : s.more_contexts)
      if (!read_context(m)) return body_bad("stream context memory");
  }
  if (!r.size(k) || k != s.cfg.levels()) return body_bad("error buffers");
  const bool omega = has_omega(s.cfg.rule);
  for (std::size_t l = 0; l < k; ++l) {
    std::size_t count = 0;
    if (!r.floats(flat) || !r.size(count)) return body_bad("error buffers");
    auto lp = LevelParams<float>::from_flat(flat, s.cfg.d, omega);
    if (!lp.ok()) return body_bad("error buffers");
    s.buffer_sums.push_back(std::move(*lp));
    s.buffer_counts.push_back(count);
  }
  if (!r.text(c.run)) return body_bad("run record");
  if (!r.done()) return bad("checkpoint body has trailing bytes");
  return c;
}

}  // namespace nl
