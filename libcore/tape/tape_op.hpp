#pragma once
// TapeOp: one recorded operation. The records mirror the seed's TapeOp enum; each op family in
// tape/ops/ fills its record when it executes and reads it back in its VJP.
//
// Extension points, so code outside this file never edits the backward dispatch:
//  * CustomOp: any op (the NL ops of tape/ops/nl_*) records its buffers, a few scalars and a
//    backward function pointer; Tape::backward calls it.
//  * OpaqueOp: a memory-rule / SWA block with its VJP from the opaque registry (tape/opaque/),
//    looked up by the recorder and stored in the record.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "tape/buf_id.hpp"
#include "tape/context_spill.hpp"
#include "tape/shape.hpp"
#include "tape/opaque/opaque_key.hpp"

namespace tape {

class Tape;

// ── Linear algebra ───────────────────────────────────────────────────────────
struct MatmulOp { BufId a, b, out; std::size_t m, k, n; };            // out = A @ B
struct MatmulTransposeBOp { BufId a, b, out; std::size_t m, k, n; };  // out = A @ B^T, B is n x k
struct TransposeOp { BufId input, out; std::size_t rows, cols; };     // input rows x cols
struct OuterProductOp { BufId a, b, out; };                           // out = a b^T
struct FrobeniusDotOp { BufId a, b, out; };                           // out = <A, B> (scalar)
// ── Element-wise ─────────────────────────────────────────────────────────────
struct AddOp { BufId a, b, out; };
struct SubOp { BufId a, b, out; };
struct MulOp { BufId a, b, out; };
struct ScaleOp { BufId input; float scalar; BufId out; };
struct NegateOp { BufId input, out; };
// ── Activations (±15 clamps of nltrain-math §0) ─────────────────────────────
struct SigmoidOp { BufId input, out; };
struct SoftplusOp { BufId input, out; };
struct SiluOp { BufId input, out; };
// ── Reductions / structured ──────────────────────────────────────────────────
struct SoftmaxOp { BufId input, out; std::size_t rows, cols; };
struct CrossEntropyOp {
  BufId logits;
  std::vector<std::size_t> targets;  // ids >= vocab_size are ignored (nltrain-math §9)
  BufId out;
  BufId probs;  // saved row softmax of the logits
  std::size_t vocab_size, n_valid;
};
struct EmbedLookupOp { BufId table; std::vector<std::size_t> indices; BufId out; std::size_t vocab_size, d; };
struct L2NormOp { BufId input, out; };  // out = ||x||_2 (scalar)
// ── Retention ────────────────────────────────────────────────────────────────
struct L2RetentionOp { BufId input; float lambda; BufId out; };
// ── Concat / reshape ─────────────────────────────────────────────────────────
struct ConcatOp { std::vector<BufId> inputs; BufId out; std::size_t axis; };
struct SliceOp { BufId input, out; std::size_t offset, len; };  // flat [offset, offset+len)

// ── Extension: ops defined outside the core (NL ops) ─────────────────────────
// Up to four buffer ids, inline so that recording does not allocate.
class SmallBufIds {
 public:
  static constexpr std::size_t kCapacity = 4;
  SmallBufIds() = default;
  // Throws TapeError beyond kCapacity. Inline: every CustomOp record builds three of these.
  SmallBufIds(std::initializer_list<BufId> ids) {
    if (ids.size() > kCapacity) [[unlikely]] throw_too_many(ids.size());
    for (BufId id : ids) ids_[count_++] = id;
  }
  [[nodiscard]] std::span<const BufId> span() const { return {ids_.data(), count_}; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] BufId operator[](std::size_t i) const { return ids_[i]; }

 private:
  [[noreturn]] static void throw_too_many(std::size_t n);

  std::array<BufId, kCapacity> ids_{};
  std::size_t count_ = 0;
};

struct CustomOp;
// Adds this op's VJP into the accumulators of its inputs (Tape::grad_accumulator), reading the
// upstream gradient with Tape::grad(out) and saved values with Tape::data(id).
using CustomBackwardFn = void (*)(const CustomOp& op, Tape& tape);

struct CustomOp {
  const char* name = "";  // static string naming the op in errors ("NormalizedSiLU")
  CustomBackwardFn backward = nullptr;
  SmallBufIds inputs, outputs, saved;
  std::array<float, 4> scalars{};      // op constants (alpha, threshold, ...)
  std::array<std::size_t, 4> dims{};  // op sizes (rows, cols, slots, ...)
};

// ── Extension: opaque blocks (memory rules, SWA) ─────────────────────────────
// The seed's opaque VJP signature. d_inputs arrive zeroed, one per input, sized like it; the
// function writes each input's gradient and the tape adds them into its accumulators.
using OpaqueBackwardFn = void (*)(std::span<const std::span<const float>> d_outputs,
                                  std::span<const std::span<const float>> saved,
                                  std::span<const std::span<float>> d_inputs);
// The same VJP for a block that also hands the tape its typed forward state (`context`, e.g. a
// memory rule's cache): it reads that state in place instead of decoding it from `saved`.
using OpaqueContextBackwardFn = void (*)(const void* context, std::span<const std::span<const float>> d_outputs,
                                         std::span<const std::span<const float>> saved,
                                         std::span<const std::span<float>> d_inputs);

struct OpaqueOp {
  opaque::OpaqueKey key;
  std::vector<BufId> inputs, outputs;
  std::vector<BufId> saved;            // tensors kept for backward (the rule's cache)
  OpaqueBackwardFn backward = nullptr;  // the registry's function for `key`, set by the recorder
  // Optional: the block's typed forward state, owned by the record (saved buffers may alias it),
  // and the registry's in-place function for `key`, which backward then calls instead.
  std::shared_ptr<const void> context;
  OpaqueContextBackwardFn context_backward = nullptr;
  // Optional: the context's float fields, so a ContextSpill can move them out and back
  // (Tape::take_context / put_context). Null: the context stays where it is.
  ContextFieldsFn context_fields = nullptr;
  // While the fields are moved out: each field's length, and where each saved buffer that
  // aliased a field pointed (to re-point it when they come back).
  struct AliasSpot {
    std::size_t saved, field, offset;
    Shape shape;
  };
  bool context_taken = false;
  std::vector<std::size_t> taken_sizes{};
  std::vector<AliasSpot> taken_aliases{};
};

using TapeOp = std::variant<MatmulOp, MatmulTransposeBOp, TransposeOp, OuterProductOp, FrobeniusDotOp, AddOp, SubOp,
                            MulOp, ScaleOp, NegateOp, SigmoidOp, SoftplusOp, SiluOp, SoftmaxOp, CrossEntropyOp,
                            EmbedLookupOp, L2NormOp, L2RetentionOp, ConcatOp, SliceOp, CustomOp, OpaqueOp>;

}  // namespace tape
