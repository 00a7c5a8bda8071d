// Tape::take_context / put_context: a record's context fields out as byte pieces and back, for a
// ContextSpill hook (context_spill.hpp). Pieces, not one copy of the whole context: a hook that
// writes them out as they come holds at most one piece beside the fields, so moving a cache out
// of RAM never needs a second cache's worth of RAM.
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

#include "tape/float_pool.hpp"
#include "tape/tape.hpp"

namespace tape {

std::size_t Tape::context_bytes(const OpaqueOp& op) {
  std::size_t floats = 0;
  if (op.context_taken) {  // the fields are out: their lengths were kept
    for (std::size_t n : op.taken_sizes) floats += n;
    return floats * sizeof(float);
  }
  op.context_fields(const_cast<void*>(op.context.get()), [&](std::vector<float>& v) { floats += v.size(); });
  return floats * sizeof(float);
}

OpaqueOp& Tape::spillable(std::size_t op_index, const char* what) {
  OpaqueOp* op = op_index < ops_.size() ? std::get_if<OpaqueOp>(&ops_[op_index]) : nullptr;
  if (op == nullptr || op->context == nullptr || op->context_fields == nullptr) {
    throw TapeError(what, "record " + std::to_string(op_index) + " holds no context with fields", {});
  }
  return *op;
}

std::size_t Tape::take_context(std::size_t op_index, std::size_t piece_bytes, const ContextSink& sink) {
  OpaqueOp& op = spillable(op_index, "take_context");
  if (op.context_taken) throw TapeError("take_context", "record " + std::to_string(op_index) + "'s context is already out", {});
  if (piece_bytes == 0) throw TapeError("take_context", "pieces of 0 bytes", {});
  // The record owns the object, made non-const by its recorder; the VJP alone reads it as const.
  void* ctx = const_cast<void*>(op.context.get());
  op.taken_sizes.clear();
  op.taken_aliases.clear();
  op.context_taken = true;  // from here on: a sink that throws leaves the record unusable, never half-read
  std::size_t field = 0, pieces = 0;
  op.context_fields(ctx, [&](std::vector<float>& v) {
    // Saved buffers pointing into this field (record_opaque's aliases): where, to re-point them.
    for (std::size_t i = 0; i < op.saved.size(); ++i) {
      TapeBuf& b = bufs_[op.saved[i].index()];
      const std::less_equal<const float*> le;  // pointers into different objects: compared as std::less_equal does
      if (b.in_context && b.data != nullptr && le(v.data(), b.data) && le(b.data + b.shape.numel(), v.data() + v.size())) {
        op.taken_aliases.push_back({i, field, static_cast<std::size_t>(b.data - v.data()), b.shape});
        b.data = nullptr, b.shape = Shape{0};
      }
    }
    op.taken_sizes.push_back(v.size());
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(v.data());
    const std::size_t n = v.size() * sizeof(float);
    for (std::size_t at = 0; at < n; at += piece_bytes, ++pieces) sink({bytes + at, std::min(piece_bytes, n - at)});
    // Freed, not pooled: a field moved out to save RAM must not stay in this thread's FloatPool.
    std::vector<float>().swap(v);
    ++field;
  });
  return pieces;
}

void Tape::put_context(std::size_t op_index, const ContextFill& fill) {
  OpaqueOp& op = spillable(op_index, "put_context");
  if (!op.context_taken) throw TapeError("put_context", "record " + std::to_string(op_index) + "'s context is not out", {});
  void* ctx = const_cast<void*>(op.context.get());
  std::vector<const float*> starts;
  std::size_t field = 0;
  op.context_fields(ctx, [&](std::vector<float>& v) {
    v = take_cache_buffer<float>(op.taken_sizes[field++]);
    fill({reinterpret_cast<std::uint8_t*>(v.data()), v.size() * sizeof(float)});
    starts.push_back(v.data());
  });
  for (const OpaqueOp::AliasSpot& a : op.taken_aliases) {
    TapeBuf& b = bufs_[op.saved[a.saved].index()];
    b.data = starts[a.field] + a.offset, b.shape = a.shape;
  }
  op.context_taken = false;
  op.taken_sizes.clear();
  op.taken_aliases.clear();
}

}  // namespace tape
