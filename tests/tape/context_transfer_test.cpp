// Tape::take_context / put_context and the ContextSpill hook: a context moved out after its record
// and put back before its VJP gives the same gradient bits; while out, the buffers aliasing it read
// empty; a hook's SpillError comes out of try_with_tape as an io error.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "tape/context_spill.hpp"
#include "tape/opaque/record_opaque.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/tape.hpp"

namespace context_transfer_test {
namespace {

using tape::Shape;
using tape::Tensor;
using Spans = std::span<const std::span<const float>>;

// y = x * c element-wise, c (and a second field, scaled) held in the block's context.
struct ScaleContext {
  std::vector<float> c, twice;
  void visit(const std::function<void(std::vector<float>&)>& f) { f(c), f(twice); }
};
void fields(void* ctx, const std::function<void(std::vector<float>&)>& f) { static_cast<ScaleContext*>(ctx)->visit(f); }

void seed_vjp(Spans, Spans, std::span<const std::span<float>>) {}
void scale_in_place(const void* ctx, Spans d_out, Spans saved, std::span<const std::span<float>> d_in) {
  const auto& c = *static_cast<const ScaleContext*>(ctx);
  REQUIRE(saved[0].size() == c.c.size());
  CHECK(saved[0].data() == c.c.data());  // the alias points at the (possibly new) storage
  for (std::size_t i = 0; i < c.c.size(); ++i) d_in[0][i] = d_out[0][i] * (c.c[i] + 0.25f * c.twice[i]);
}

const tape::opaque::OpaqueRegistry& registry() {
  static const tape::opaque::OpaqueRegistry r = [] {
    tape::opaque::OpaqueRegistry reg;
    REQUIRE(reg.register_backward(tape::opaque::OpaqueKey::frozen_delta_rule, seed_vjp, scale_in_place).ok());
    return reg;
  }();
  return r;
}

// Takes every context as soon as it is recorded; gives it back when backward needs it.
class TakeAll final : public tape::ContextSpill {
 public:
  void recorded(tape::Tape& t, tape::ContextRef r) override {
    std::vector<std::uint8_t>& out = out_[r.op_index];
    // Pieces of 5 bytes: a float cut in two, and a field's last piece shorter.
    const std::size_t pieces = t.take_context(r.op_index, 5, [&](std::span<const std::uint8_t> p) {
      CHECK(p.size() <= 5);
      out.insert(out.end(), p.begin(), p.end());
    });
    CHECK(out.size() == r.bytes);
    CHECK(pieces == 2 * ((r.bytes / 2 + 4) / 5));  // two fields of equal size, cut apart
    taken_ += 1;
  }
  void needed(tape::Tape& t, tape::ContextRef r) override {
    const auto& op = std::get<tape::OpaqueOp>(t.ops()[r.op_index]);
    CHECK(t.data(op.saved[0]).empty());  // out: the alias reads as nothing, never freed memory
    give_back(t, r.op_index);
    out_.erase(r.op_index);
  }
  void give_back(tape::Tape& t, std::size_t op) {
    std::size_t at = 0;
    t.put_context(op, [&](std::span<std::uint8_t> field) {
      std::copy_n(out_.at(op).begin() + static_cast<std::ptrdiff_t>(at), field.size(), field.begin());
      at += field.size();
    });
    CHECK(at == out_.at(op).size());
  }
  void released(tape::Tape&, tape::ContextRef) override { ++released_; }
  int taken_ = 0, released_ = 0;
  std::map<std::size_t, std::vector<std::uint8_t>> out_;
};

class Failing final : public tape::ContextSpill {
 public:
  void recorded(tape::Tape&, tape::ContextRef) override { throw tape::SpillError("spill", "disk full (injected)", {}); }
  void needed(tape::Tape&, tape::ContextRef) override {}
  void released(tape::Tape&, tape::ContextRef) override {}
};

std::vector<float> record_and_grad(tape::Tape& t, tape::ContextSpill* hook) {
  {
    t.set_context_spill(hook);
    const std::vector<float> xv{1, 2, 3, 4}, cv{0.5f, -1, 2, 0.125f};
    const Tensor x = t.register_param(xv, Shape{4});
    Tensor acc;
    for (int k = 0; k < 3; ++k) {  // three records: taken and put back in reverse order
      auto ctx = std::make_shared<ScaleContext>();
      for (float v : cv) ctx->c.push_back(v * static_cast<float>(k + 1)), ctx->twice.push_back(2 * v);
      std::vector<float> y(4);
      for (std::size_t i = 0; i < 4; ++i) y[i] = xv[i] * (ctx->c[i] + 0.25f * ctx->twice[i]);
      const std::array<tape::opaque::OpaqueValue, 1> outs{tape::opaque::OpaqueValue{y, Shape{4}}};
      const std::array<tape::opaque::OpaqueValue, 1> saved{tape::opaque::OpaqueValue{ctx->c, Shape{4}, true}};
      const std::array<Tensor, 1> ins{x};
      const Tensor out = tape::opaque::record_opaque(registry(), tape::opaque::OpaqueKey::frozen_delta_rule, ins, outs, saved,
                                                     std::move(ctx), &fields)
                             .at(0);
      acc = k == 0 ? out : tape::ops::add(acc, out);
    }
    const std::vector<float> ones(4, 1.0f);
    t.backward(tape::ops::frobenius_dot(acc, Tensor::from(ones, Shape{4})).id());
    return t.get_grad(x.id());
  }
}

std::vector<float> grad_of_x(tape::ContextSpill* hook) {
  return tape::with_tape([&](tape::Tape& t) { return record_and_grad(t, hook); });
}

}  // namespace
}  // namespace context_transfer_test

using namespace context_transfer_test;

TEST_CASE("context_transfer: contexts taken out after recording and put back before their VJP give the same bits") {
  TakeAll hook;
  const std::vector<float> plain = grad_of_x(nullptr), spilled = grad_of_x(&hook);
  CHECK(plain == spilled);
  CHECK(hook.taken_ == 3);
  CHECK(hook.released_ == 3);
  CHECK(hook.out_.empty());
}

TEST_CASE("context_transfer: taking twice, putting back what is not out, pieces of 0 bytes are refused; a hook's SpillError is an io error") {
  tape::with_tape([&](tape::Tape& t) {
    TakeAll hook;
    t.set_context_spill(&hook);
    auto ctx = std::make_shared<ScaleContext>(ScaleContext{{1, 2}, {3, 4}});
    const std::vector<float> y{1, 2};
    const std::array<tape::opaque::OpaqueValue, 1> outs{tape::opaque::OpaqueValue{y, Shape{2}}};
    const std::array<tape::opaque::OpaqueValue, 1> saved{tape::opaque::OpaqueValue{ctx->c, Shape{2}, true}};
    const std::array<Tensor, 1> ins{t.register_param(y, Shape{2})};
    (void)tape::opaque::record_opaque(registry(), tape::opaque::OpaqueKey::frozen_delta_rule, ins, outs, saved, ctx, &fields);
    CHECK(ctx->c.empty());  // taken by the hook
    const std::size_t last = t.ops().size() - 1;
    CHECK_THROWS_AS((void)t.take_context(last, 4, [](std::span<const std::uint8_t>) {}), tape::TapeError);
    hook.give_back(t, last);
    CHECK(ctx->c == std::vector<float>{1, 2});
    CHECK(ctx->twice == std::vector<float>{3, 4});
    CHECK_THROWS_AS(t.put_context(last, [](std::span<std::uint8_t>) {}), tape::TapeError);
    CHECK_THROWS_AS((void)t.take_context(last, 0, [](std::span<const std::uint8_t>) {}), tape::TapeError);
  });
  Failing failing;
  const auto r = tape::try_with_tape([&](tape::Tape& t) { return record_and_grad(t, &failing).size(); });
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
  CHECK(r.error().message() == "disk full (injected)");
  CHECK_FALSE(r.error().non_finite());
}
