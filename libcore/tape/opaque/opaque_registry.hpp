#pragma once
// OpaqueRegistry: maps each OpaqueKey to the backward function (VJP) of its block. It is a plain
// object owned by the caller, not a process-wide table: record_opaque is handed the registry to
// resolve a key against, so two trainers can run different rule sets side by side. The function
// type is the seed's signature, tape::OpaqueBackwardFn (tape/tape_op.hpp).
#include <array>

#include "common/result.hpp"
#include "tape/opaque/opaque_key.hpp"
#include "tape/tape_op.hpp"

namespace tape::opaque {

class OpaqueRegistry {
 public:
  // Fails (invalid_argument) when fn is null or when the key already has a function:
  // a second registration is almost always two rules claiming one key.
  [[nodiscard]] common::Status register_backward(OpaqueKey key, OpaqueBackwardFn fn);

  [[nodiscard]] bool contains(OpaqueKey key) const { return fns_[index_of(key)] != nullptr; }

  // The key's function; unsupported error naming the key when none is registered.
  [[nodiscard]] common::Result<OpaqueBackwardFn> find(OpaqueKey key) const;

 private:
  std::array<OpaqueBackwardFn, kOpaqueKeyCount> fns_{};
};

}  // namespace tape::opaque
