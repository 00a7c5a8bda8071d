#pragma once
// BlockHeader: what an opaque block's backward needs besides tensors (the rule, its
// configuration, the chunk length). The seed's VJP signature is a plain function pointer with
// no context, so the header travels as the block's first saved tensor, encoded in floats.
// Sizes and enums are small integers (exact in fp32); constants are rounded to fp32, which is
// the precision the fp32 path computes them in anyway.
#include <cstddef>
#include <span>
#include <vector>

#include "nl/rule_config.hpp"

namespace nl {

struct BlockHeader {
  RuleKind kind = RuleKind::delta;
  RuleConfig cfg;
  std::size_t s = 0;  // tokens in the chunk
};

[[nodiscard]] std::vector<float> encode_header(const BlockHeader& h);
// The inverse of encode_header on its own output (blocks only read headers they wrote).
[[nodiscard]] BlockHeader decode_header(std::span<const float> data);

}  // namespace nl
