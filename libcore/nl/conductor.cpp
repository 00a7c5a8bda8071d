#include "nl/conductor.hpp"

namespace nl {

Pulse Conductor::pulse() const {
  Pulse p;
  p.active.reserve(periods_.size());
  for (std::size_t c : periods_) p.active.push_back(step_ % c == 0);
  return p;
}

}  // namespace nl
