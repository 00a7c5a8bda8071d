#include "tape/ops/embed.hpp"

#include <doctest/doctest.h>

#include "tape/ops/op_check.hpp"

using namespace tape;
using tape::testing::check_all;
using tape::testing::make_case;

namespace {
using V = std::vector<std::vector<double>>;
const std::vector<std::size_t> kIds{1, 4, 1, 0};  // token 1 twice: scatter-add
}  // namespace

TEST_CASE("embed_lookup: VJP matches fp64 finite differences, accumulates, untraced is bitwise equal") {
  check_all(make_case("EmbedLookup", {Shape{5, 3}}, [](auto in) { return ops::embed_lookup(in[0], kIds); },
                      [](const V& x) {
                        std::vector<double> o(12);
                        ops::embed_lookup_forward<double>(x[0], kIds, 3, o);
                        return o;
                      }));
}

TEST_CASE("embed_lookup: repeated tokens scatter-add; unused rows get zero") {
  const auto g = tape::with_tape([](Tape& t) {
    const Tensor table = t.register_param(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2});
    const Tensor out = ops::embed_lookup(table, std::vector<std::size_t>{2, 0, 2});
    CHECK(out.to_vector() == std::vector<float>{5, 6, 1, 2, 5, 6});
    t.backward(out.id(), std::vector<float>{1, 10, 100, 1000, 2, 20});
    return t.get_grad(table.id());
  });
  CHECK(g == std::vector<float>{100, 1000, 0, 0, 3, 30});
}

TEST_CASE("embed_lookup: an index out of range names the position and the vocabulary") {
  const Tensor table = Tensor::from(std::vector<float>(6, 0.0f), {3, 2});
  CHECK_THROWS_WITH_AS(ops::embed_lookup(table, std::vector<std::size_t>{0, 3}),
                       "EmbedLookup: index 3 at position 1 is out of range for vocab 3; shapes [3,2]", TapeError);
}
