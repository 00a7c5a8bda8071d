#include "receipt/engine/contraction_probe.hpp"

namespace receipt::engine {

#if defined(__x86_64__)
__attribute__((target("fma")))
#endif
double contraction_probe(double a, double b, double c) {
  return a * b + c;
}

}  // namespace receipt::engine
