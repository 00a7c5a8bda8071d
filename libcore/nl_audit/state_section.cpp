#include "nl_audit/state_section.hpp"

#include <algorithm>

#include "nl/named_tensors.hpp"

namespace nl_audit {
namespace {

template <typename T>
void add_prefixed(std::vector<nl::BasicNamedTensor<T>>& out, const std::string& prefix, std::vector<nl::BasicNamedTensor<T>> ts) {
  for (nl::BasicNamedTensor<T>& t : ts) {
    t.name = prefix + t.name;
    out.push_back(std::move(t));
  }
}

// Every tensor of `s` under its receipt name, as a view into `s` (valid while `s` lives).
template <typename T>
std::vector<nl::BasicNamedTensor<T>> state_views(nl::BasicTrainerState<T>& s) {
  std::vector<nl::BasicNamedTensor<T>> out;
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

template <typename T>
std::vector<nl::BasicNamedTensor<T>> gradient_views(const nl::MagConfig& cfg, nl::BasicStepTrace<T>& t, const nl::Pulse& pulse) {
  std::vector<nl::BasicNamedTensor<T>> out;
  add_prefixed(out, "grad/", nl::named_tensors(cfg, t.gradients));
  for (std::size_t l = 0; l < t.error.size(); ++l) {
    if (!pulse.is_active(l)) add_prefixed(out, "error/", nl::named_level_tensors(cfg, l, t.error[l]));
  }
  return out;
}

template <typename T>
nl::BasicTrainerState<T> zero_state(const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  nl::BasicTrainerState<T> s{cfg, opt, nl::MagParams<T>::zeros(cfg), {}, 0, nl::ContextMemory<T>::initial(cfg), {}, {}};
  s.adam.m = s.params;
  s.adam.v = s.params;
  s.adam.tau_level.assign(cfg.levels(), 0);
  s.buffer_sums.assign(cfg.levels(), nl::LevelParams<T>::zeros(cfg.d, nl::has_omega(cfg.rule)));
  s.buffer_counts.assign(cfg.levels(), 0);
  return s;
}

template <typename T>
nl::BasicStepTrace<T> zero_trace(const nl::MagConfig& cfg) {
  return {nl::MagParams<T>::zeros(cfg),
          std::vector<nl::LevelParams<T>>(cfg.levels(), nl::LevelParams<T>::zeros(cfg.d, nl::has_omega(cfg.rule))), 0,
          std::nullopt, 0};
}

// Copies every entry's values into the matching view; the layouts must agree.
template <typename T>
common::Status fill(const std::vector<TensorEntry>& entries, std::vector<nl::BasicNamedTensor<T>>& views) {
  if (entries.size() != views.size()) {
    return common::Error::malformed("holds " + std::to_string(entries.size()) + " tensors; the model has " +
                                    std::to_string(views.size()));
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    const TensorEntry& e = entries[i];
    if (e.name != views[i].name || e.shape != views[i].shape) {
      return common::Error::malformed("tensor " + std::to_string(i) + " is " + e.name + "; the model's is " + views[i].name);
    }
    auto v = tensor_values<T>(e);
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
  nl::TrainerState s = zero_state<float>(cfg, {});
  return slots(state_views(s));
}

std::vector<TensorSlot> gradient_layout(const nl::MagConfig& cfg, const nl::Pulse& pulse) {
  nl::StepTrace t = zero_trace<float>(cfg);
  return slots(gradient_views(cfg, t, pulse));
}

template <typename T>
StateSection encode_state(const nl::BasicTrainerState<T>& state, bool with_bytes) {
  // The views are only read here; named_tensors takes a mutable state because its other callers
  // write through them.
  auto& s = const_cast<nl::BasicTrainerState<T>&>(state);
  StateSection out;
  out.counters = {s.step, s.adam.tau, s.adam.tau_level, {s.buffer_counts.begin(), s.buffer_counts.end()}};
  for (const nl::BasicNamedTensor<T>& t : state_views(s)) {
    out.tensors.push_back(tensor_entry<T>(t.name, t.shape, t.data, with_bytes));
  }
  return out;
}

template <typename T>
std::vector<TensorEntry> encode_gradients(const nl::MagConfig& cfg, const nl::BasicStepTrace<T>& trace, const nl::Pulse& pulse,
                                          bool with_bytes) {
  auto& t = const_cast<nl::BasicStepTrace<T>&>(trace);  // read only, as in encode_state
  std::vector<TensorEntry> out;
  for (const nl::BasicNamedTensor<T>& v : gradient_views(cfg, t, pulse)) out.push_back(tensor_entry<T>(v.name, v.shape, v.data, with_bytes));
  return out;
}

template <typename T>
common::Result<nl::BasicTrainerState<T>> decode_state(const StateSection& sec, const nl::MagConfig& cfg, const nl::AdamWConfig& opt) {
  nl::BasicTrainerState<T> s = zero_state<T>(cfg, opt);
  std::vector<nl::BasicNamedTensor<T>> views = state_views(s);
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

template <typename T>
common::Result<nl::BasicStepTrace<T>> decode_gradients(const std::vector<TensorEntry>& entries, const nl::MagConfig& cfg,
                                                       const nl::Pulse& pulse) {
  nl::BasicStepTrace<T> t = zero_trace<T>(cfg);
  std::vector<nl::BasicNamedTensor<T>> views = gradient_views(cfg, t, pulse);
  if (common::Status f = fill(entries, views); !f.ok()) return f.error();
  return t;
}

template StateSection encode_state<float>(const nl::BasicTrainerState<float>&, bool);
template StateSection encode_state<double>(const nl::BasicTrainerState<double>&, bool);
template std::vector<TensorEntry> encode_gradients<float>(const nl::MagConfig&, const nl::BasicStepTrace<float>&, const nl::Pulse&, bool);
template std::vector<TensorEntry> encode_gradients<double>(const nl::MagConfig&, const nl::BasicStepTrace<double>&, const nl::Pulse&, bool);
template common::Result<nl::BasicTrainerState<float>> decode_state<float>(const StateSection&, const nl::MagConfig&, const nl::AdamWConfig&);
template common::Result<nl::BasicTrainerState<double>> decode_state<double>(const StateSection&, const nl::MagConfig&, const nl::AdamWConfig&);
template common::Result<nl::BasicStepTrace<float>> decode_gradients<float>(const std::vector<TensorEntry>&, const nl::MagConfig&, const nl::Pulse&);
template common::Result<nl::BasicStepTrace<double>> decode_gradients<double>(const std::vector<TensorEntry>&, const nl::MagConfig&, const nl::Pulse&);

}  // namespace nl_audit
