#include "nl/context_memory.hpp"

#include "nl/initial_state.hpp"
#include "nl/tracked32.hpp"

namespace nl {

template <typename T>
ContextMemory<T> ContextMemory<T>::initial(const MagConfig& cfg) {
  ContextMemory m;
  m.levels.assign(cfg.levels(), initial_state<T>(cfg.rule, cfg.rule_cfg));
  return m;
}

template struct ContextMemory<float>;
template struct ContextMemory<double>;
template struct ContextMemory<Tracked32>;
template struct ContextMemory<Tracked64>;

}  // namespace nl
