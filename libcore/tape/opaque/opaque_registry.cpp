#include "tape/opaque/opaque_registry.hpp"

#include <string>

namespace tape::opaque {

common::Status OpaqueRegistry::register_backward(OpaqueKey key, OpaqueBackwardFn fn) {
  const std::string name(to_string(key));
  if (fn == nullptr) {
    return common::Error::invalid_argument("opaque VJP " + name + ": cannot register a null backward function");
  }
  OpaqueBackwardFn& slot = fns_[index_of(key)];
  if (slot != nullptr) {
    return common::Error::invalid_argument("opaque VJP " + name +
                                           ": a backward function is already registered for this key");
  }
  slot = fn;
  return {};
}

common::Result<OpaqueBackwardFn> OpaqueRegistry::find(OpaqueKey key) const {
  const OpaqueBackwardFn fn = fns_[index_of(key)];
  if (fn == nullptr) {
    return common::Error::unsupported("opaque VJP " + std::string(to_string(key)) +
                                      ": no backward function registered for this key in the registry");
  }
  return fn;
}

}  // namespace tape::opaque
