#include "nl_audit/state_section.hpp"

#include <algorithm>

#include "nl/named_tensors.hpp"

namespace nl_audit {
namespace {

void add_prefixed(std::vector<nl::NamedTensor>& out, const std::string& prefix, std::vector<nl::NamedTensor> ts) {
  for (nl::NamedTensor& t : ts) {
    t.name = prefix + t.name;
    out.push_back(std::move(t));
  }
}

// Every tensor of `s` under its receipt name, as a view into `s` (valid while `s` lives).
std::vector<nl::NamedTensor> state_views(nl::TrainerState& s) {
  std::vector<nl::NamedTensor> out;
  add_prefixed(out, "params/", nl::named_tensors(s.cfg, s.params));
  add_prefixed(out, "adam_m/", nl::named_tensors(s.cfg, s.adam.m));
  add_prefixed(out, "adam_v/", nl::named_tensors(s.cfg, s.adam.v));
  for (std::size_t l = 0; l < s.context.levels.size(); ++l) {
    out.push_back({"context/" + std::to_string(l), {s.context.levels[l].size()}, s.context.levels[l]});
  }
  for (std::size_t l = 0; l < s.buffer_sums.size(); ++l) {
    add_prefixed(out, "error_buffer/", nl::named_level_tensors(s.cfg, l, s.buffer_sums[l]));
  }
  return out;
}

std::vector<nl::NamedTensor> gradient_views(const nl::MagConfig& cfg, nl::StepTrace& t, const nl::Pulse& pulse) {
  std::vector<nl::NamedTensor> out;
  add_prefixed(out, "grad/", nl::named_tensors(cfg, t.gradients));
  for (std::size_t l = 0; l < t.error.size(); ++l) {
    if (!pulse.is_active(l)) add_prefixed(out, "error/", nl::named_level_tensors(cfg, l, t.error[l]));
  }
  return out;
}

nl::TrainerState zero_state(const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  nl::TrainerState s{cfg, opt, nl::MagParams<float>::zeros(cfg), {}, 0, nl::ContextMemory<float>::initial(cfg), {}, {}};
  s.adam.m = s.params;
  s.adam.v = s.params;
  s.adam.tau_level.assign(cfg.levels(), 0);
  s.buffer_sums.assign(cfg.levels(), nl::LevelParams<float>::zeros(cfg.d, nl::has_omega(cfg.rule)));
  s.buffer_counts.assign(cfg.levels(), 0);
  return s;
}

nl::StepTrace zero_trace(const nl::MagConfig& cfg) {
  return {nl::MagParams<float>::zeros(cfg),
          std::vector<nl::LevelParams<float>>(cfg.levels(), nl::LevelParams<float>::zeros(cfg.d, nl::has_omega(cfg.rule))), 0,
          std::nullopt, 0};
}

// Copies every entry's values into the matching view; the layouts must agree.
common::Status fill(const std::vector<TensorEntry>& entries, std::vector<nl::NamedTensor>& views) {
  if (entries.size() != views.size()) {
    return common::Error::malformed("holds " + std::to_string(entries.size()) + " tensors; the model has " +
                                    std::to_string(views.size()));
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    const TensorEntry& e = entries[i];
    if (e.name != views[i].name || e.shape != views[i].shape) {
      return common::Error::malformed("tensor " + std::to_string(i) + " is " + e.name + "; the model's is " + views[i].name);
    }
    auto v = f32_values(e);
    if (!v.ok()) return v.error();
    std::copy(v->begin(), v->end(), views[i].data.begin());
  }
  return {};
}

std::vector<TensorSlot> slots(const std::vector<nl::NamedTensor>& views) {
  std::vector<TensorSlot> out;
  for (const nl::NamedTensor& t : views) out.push_back({t.name, t.shape});
  return out;
}

}  // namespace

std::vector<TensorSlot> state_layout(const nl::MagConfig& cfg) {
  nl::TrainerState s = zero_state(cfg, {});
  return slots(state_views(s));
}

std::vector<TensorSlot> gradient_layout(const nl::MagConfig& cfg, const nl::Pulse& pulse) {
  nl::StepTrace t = zero_trace(cfg);
  return slots(gradient_views(cfg, t, pulse));
}

StateSection encode_state(const nl::TrainerState& state, bool with_bytes) {
  // The views are only read here; named_tensors takes a mutable state because its other callers
  // write through them.
  nl::TrainerState& s = const_cast<nl::TrainerState&>(state);
  StateSection out;
  out.counters = {s.step, s.adam.tau, s.adam.tau_level, {s.buffer_counts.begin(), s.buffer_counts.end()}};
  for (const nl::NamedTensor& t : state_views(s)) out.tensors.push_back(f32_entry(t.name, t.shape, t.data, with_bytes));
  return out;
}

std::vector<TensorEntry> encode_gradients(const nl::MagConfig& cfg, const nl::StepTrace& trace, const nl::Pulse& pulse,
                                          bool with_bytes) {
  nl::StepTrace& t = const_cast<nl::StepTrace&>(trace);  // read only, as in encode_state
  std::vector<TensorEntry> out;
  for (const nl::NamedTensor& v : gradient_views(cfg, t, pulse)) out.push_back(f32_entry(v.name, v.shape, v.data, with_bytes));
  return out;
}

common::Result<nl::TrainerState> decode_state(const StateSection& sec, const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  nl::TrainerState s = zero_state(cfg, opt);
  std::vector<nl::NamedTensor> views = state_views(s);
  if (common::Status f = fill(sec.tensors, views); !f.ok()) return f.error();
  const Counters& c = sec.counters;
  if (c.adam_tau_level.size() != cfg.levels() || c.error_buffer_counts.size() != cfg.levels()) {
    return common::Error::malformed("counters: one AdamW count and one error-buffer count per level expected");
  }
  s.step = c.step;
  s.adam.tau = c.adam_tau;
  s.adam.tau_level = c.adam_tau_level;
  s.buffer_counts.assign(c.error_buffer_counts.begin(), c.error_buffer_counts.end());
  return s;
}

common::Result<nl::StepTrace> decode_gradients(const std::vector<TensorEntry>& entries, const nl::MagConfig& cfg,
                                               const nl::Pulse& pulse) {
  nl::StepTrace t = zero_trace(cfg);
  std::vector<nl::NamedTensor> views = gradient_views(cfg, t, pulse);
  if (common::Status f = fill(entries, views); !f.ok()) return f.error();
  return t;
}

}  // namespace nl_audit
