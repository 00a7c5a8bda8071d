#include "receipt/engine/losses.hpp"

#include "receipt/engine/fdlibm.hpp"

namespace receipt::engine {

double half_squared_error(double target, double out) {
  const double d = target - out;
  return 0.5 * d * d;
}

double cross_entropy(double target, double p) { return target == 0 ? 0.0 : -target * fdlibm::log(p); }

}  // namespace receipt::engine
