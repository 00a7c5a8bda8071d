#include "nl/block_header.hpp"

#include <cassert>

namespace nl {
namespace {
constexpr std::size_t kHeaderFloats = 14;
float as_float(std::size_t n) { return static_cast<float>(n); }
std::size_t as_size(float f) { return static_cast<std::size_t>(f); }
}  // namespace

std::vector<float> encode_header(const BlockHeader& h) {
  const RuleConfig& c = h.cfg;
  return {as_float(static_cast<std::size_t>(h.kind)), as_float(h.s), as_float(c.d), as_float(c.d_h), as_float(c.m),
          as_float(c.d_c), static_cast<float>(c.lambda_k), static_cast<float>(c.lambda_v),
          static_cast<float>(c.lambda_2), static_cast<float>(c.lambda_loc), static_cast<float>(c.huber_delta),
          static_cast<float>(c.p), static_cast<float>(c.a_s), as_float(static_cast<std::size_t>(c.lattice_variant))};
}

BlockHeader decode_header(std::span<const float> v) {
  assert(v.size() == kHeaderFloats);
  BlockHeader h;
  h.kind = static_cast<RuleKind>(as_size(v[0]));
  h.s = as_size(v[1]);
  RuleConfig& c = h.cfg;
  c.d = as_size(v[2]), c.d_h = as_size(v[3]), c.m = as_size(v[4]), c.d_c = as_size(v[5]);
  c.lambda_k = v[6], c.lambda_v = v[7], c.lambda_2 = v[8], c.lambda_loc = v[9], c.huber_delta = v[10];
  c.p = v[11], c.a_s = v[12];
  c.lattice_variant = static_cast<LatticeVariant>(as_size(v[13]));
  return h;
}

}  // namespace nl
