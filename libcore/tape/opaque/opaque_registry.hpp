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
  // `in_place` (optional) is the same VJP reading the block's typed forward state (OpaqueOp::context);
  // a block recorded with a context needs one.
  [[nodiscard]] common::Status register_backward(OpaqueKey key, OpaqueBackwardFn fn,
                                                 OpaqueContextBackwardFn in_place = nullptr);

  [[nodiscard]] bool contains(OpaqueKey key) const { return fns_[index_of(key)] != nullptr; }

  // The key's function; unsupported error naming the key when none is registered.
  [[nodiscard]] common::Result<OpaqueBackwardFn> find(OpaqueKey key) const;
  // The key's in-place function; unsupported error naming the key when it has none.
  [[nodiscard]] common::Result<OpaqueContextBackwardFn> find_in_place(OpaqueKey key) const;

 private:
  std::array<OpaqueBackwardFn, kOpaqueKeyCount> fns_{};
  std::array<OpaqueContextBackwardFn, kOpaqueKeyCount> in_place_{};
};

}  // namespace tape::opaque
