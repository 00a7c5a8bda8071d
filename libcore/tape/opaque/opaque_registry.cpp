#include "tape/opaque/opaque_registry.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace tape::opaque {

common::Status OpaqueRegistry::register_backward(OpaqueKey key, OpaqueBackwardFn fn) {
  if (!fn) {
    return common::Error::invalid_argument("opaque VJP " + std::string(to_string(key)) +
                                           ": cannot register an empty backward function");
  }
  OpaqueBackwardFn& slot = fns_[index_of(key)];
  if (slot) {
    return common::Error::invalid_argument("opaque VJP " + std::string(to_string(key)) +
                                           ": a backward function is already registered for this key");
  }
  slot = std::move(fn);
  return {};
}

common::Status OpaqueRegistry::run_backward(OpaqueKey key, ConstBuffers d_outputs, ConstBuffers saved,
                                            std::span<std::vector<float>> d_inputs) const {
  const OpaqueBackwardFn& fn = fns_[index_of(key)];
  const std::string name(to_string(key));
  if (!fn) {
    return common::Error::unsupported("opaque VJP " + name +
                                      ": no backward function registered for this key in the tape's registry");
  }
  std::vector<std::size_t> sizes;
  sizes.reserve(d_inputs.size());
  for (std::vector<float>& d : d_inputs) {
    std::fill(d.begin(), d.end(), 0.0f);
    sizes.push_back(d.size());
  }
  if (common::Status st = fn(d_outputs, saved, d_inputs); !st.ok()) {
    common::Error e = st.error();
    return common::Error(e.code(), "opaque VJP " + name + ": " + e.message(), e.where());
  }
  for (std::size_t i = 0; i < d_inputs.size(); ++i) {
    if (d_inputs[i].size() != sizes[i]) {
      return common::Error::invalid_argument("opaque VJP " + name + ": gradient of input " + std::to_string(i) +
                                             " has " + std::to_string(d_inputs[i].size()) +
                                             " values; the input has " + std::to_string(sizes[i]));
    }
  }
  return {};
}

}  // namespace tape::opaque
