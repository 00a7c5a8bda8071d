#include "tape/opaque/opaque_registry.hpp"

#include <string>

namespace tape::opaque {

common::Status OpaqueRegistry::register_backward(OpaqueKey key, OpaqueBackwardFn fn, OpaqueContextBackwardFn in_place) {
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
  in_place_[index_of(key)] = in_place;
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

common::Result<OpaqueContextBackwardFn> OpaqueRegistry::find_in_place(OpaqueKey key) const {
  const OpaqueContextBackwardFn fn = in_place_[index_of(key)];
  if (fn == nullptr) {
    return common::Error::unsupported("opaque VJP " + std::string(to_string(key)) +
                                      ": no in-place backward function registered for this key in the registry");
  }
  return fn;
}

}  // namespace tape::opaque
