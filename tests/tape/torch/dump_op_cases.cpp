// Writes, for every traced tape op, a case with its fp32 inputs, the forward output, a random
// upstream gradient d_out and the tape's VJP of each input, as JSON for crosscheck.py.
// Usage: tape_torch_dump OUT.json      (exit 0 written, 2 usage or I/O error)
#include <array>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tape/ops/activation.hpp"
#include "tape/ops/elementwise.hpp"
#include "tape/ops/embed.hpp"
#include "tape/ops/matmul.hpp"
#include "tape/ops/nl_kl_retention.hpp"
#include "tape/ops/nl_normalized_silu.hpp"
#include "tape/ops/nl_sphere_project.hpp"
#include "tape/ops/nl_straight_through.hpp"
#include "tape/ops/reduction.hpp"
#include "tape/ops/reshape.hpp"
#include "tape/ops/retention.hpp"
#include "tape/ops/softmax.hpp"
#include "tape/tape.hpp"

namespace {

using nlohmann::json;
using tape::Shape;
using tape::Tensor;
namespace ops = tape::ops;

struct Input {
  std::string name;
  Shape shape;
  std::vector<float> data;
};

using Traced = std::function<Tensor(std::span<const Tensor>)>;

std::vector<float> uniform(std::size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

Input random_input(std::string name, Shape shape, unsigned seed, float lo = -2.0f, float hi = 2.0f) {
  return {std::move(name), shape, uniform(shape.numel(), lo, hi, seed)};
}

json shape_json(const Shape& s) {
  json dims = json::array();
  for (std::size_t i = 0; i < s.rank(); ++i) dims.push_back(s.dim(i));
  return dims;
}

class CaseWriter {
 public:
  void add(const std::string& name, const std::string& op, json attrs, const std::vector<Input>& inputs,
           const Traced& traced) {
    json c;
    c["name"] = name;
    c["op"] = op;
    c["attrs"] = std::move(attrs);
    tape::with_tape([&](tape::Tape& t) {
      std::vector<Tensor> ins;
      json jin = json::array();
      for (const Input& in : inputs) {
        ins.push_back(t.register_input(in.data, in.shape));
        jin.push_back({{"name", in.name}, {"shape", shape_json(in.shape)}, {"data", in.data}, {"grad", true}});
      }
      const Tensor out = traced(ins);
      const std::vector<float> d_out = uniform(out.numel(), -1.0f, 1.0f, seed_++);
      t.backward(out.id(), d_out);
      json grads = json::array();
      for (const Tensor& in : ins) grads.push_back(t.get_grad(in.id()));
      c["inputs"] = std::move(jin);
      c["out"] = out.to_vector();
      c["out_shape"] = shape_json(out.shape());
      c["d_out"] = d_out;
      c["d_inputs"] = std::move(grads);
    });
    cases_.push_back(std::move(c));
  }
  [[nodiscard]] json document() const { return {{"format", "tape-torch-crosscheck/1"}, {"cases", cases_}}; }

 private:
  json cases_ = json::array();
  unsigned seed_ = 1000;
};

// Activation inputs include the ±15 clamp region on both sides.
Input activation_input(unsigned seed) {
  Input in = random_input("x", Shape{14}, seed, -6.0f, 6.0f);
  const std::array<float, 4> edges = {-20.0f, -15.5f, 15.5f, 20.0f};
  for (std::size_t i = 0; i < edges.size(); ++i) in.data[i] = edges[i];
  return in;
}

void add_standard_ops(CaseWriter& w) {
  w.add("matmul 3x4 @ 4x5", "matmul", json::object(),
        {random_input("a", Shape{3, 4}, 1), random_input("b", Shape{4, 5}, 2)},
        [](auto in) { return ops::matmul(in[0], in[1]); });
  w.add("matmul_transpose_b 3x4 @ (5x4)^T", "matmul_transpose_b", json::object(),
        {random_input("a", Shape{3, 4}, 3), random_input("b", Shape{5, 4}, 4)},
        [](auto in) { return ops::matmul_transpose_b(in[0], in[1]); });
  w.add("transpose 3x5", "transpose", json::object(), {random_input("x", Shape{3, 5}, 5)},
        [](auto in) { return ops::transpose(in[0]); });
  w.add("outer_product 4 x 3", "outer_product", json::object(),
        {random_input("a", Shape{4}, 6), random_input("b", Shape{3}, 7)},
        [](auto in) { return ops::outer_product(in[0], in[1]); });
  w.add("frobenius_dot 2x3", "frobenius_dot", json::object(),
        {random_input("a", Shape{2, 3}, 8), random_input("b", Shape{2, 3}, 9)},
        [](auto in) { return ops::frobenius_dot(in[0], in[1]); });
  w.add("add 2x4", "add", json::object(), {random_input("a", Shape{2, 4}, 10), random_input("b", Shape{2, 4}, 11)},
        [](auto in) { return ops::add(in[0], in[1]); });
  w.add("sub 2x4", "sub", json::object(), {random_input("a", Shape{2, 4}, 12), random_input("b", Shape{2, 4}, 13)},
        [](auto in) { return ops::sub(in[0], in[1]); });
  w.add("mul 2x4", "mul", json::object(), {random_input("a", Shape{2, 4}, 14), random_input("b", Shape{2, 4}, 15)},
        [](auto in) { return ops::mul(in[0], in[1]); });
  w.add("scale 5 by 0.75", "scale", {{"scalar", 0.75f}}, {random_input("x", Shape{5}, 16)},
        [](auto in) { return ops::scale(in[0], 0.75f); });
  w.add("negate 5", "negate", json::object(), {random_input("x", Shape{5}, 17)},
        [](auto in) { return ops::negate(in[0]); });
  w.add("sigmoid 14 incl. clamps", "sigmoid", json::object(), {activation_input(18)},
        [](auto in) { return ops::sigmoid(in[0]); });
  w.add("softplus 14 incl. clamps", "softplus", json::object(), {activation_input(19)},
        [](auto in) { return ops::softplus(in[0]); });
  w.add("silu 14 incl. clamps", "silu", json::object(), {activation_input(20)},
        [](auto in) { return ops::silu(in[0]); });
  w.add("softmax 3x5", "softmax", {{"rows", 3}, {"cols", 5}}, {random_input("x", Shape{3, 5}, 21, -3.0f, 3.0f)},
        [](auto in) { return ops::softmax(in[0]); });
  {
    const std::vector<std::size_t> targets = {1, 5, 7, 0};  // 7 >= V = 6: ignored
    w.add("cross_entropy 4x6 with an ignored target", "cross_entropy", {{"targets", targets}},
          {random_input("logits", Shape{4, 6}, 22, -3.0f, 3.0f)},
          [targets](auto in) { return ops::cross_entropy(in[0], targets); });
  }
  {
    const std::vector<std::size_t> indices = {4, 0, 4, 2};  // row 4 twice: scatter-add
    w.add("embed_lookup 5x3 table, repeated index", "embed_lookup", {{"indices", indices}},
          {random_input("table", Shape{5, 3}, 23)}, [indices](auto in) { return ops::embed_lookup(in[0], indices); });
  }
  w.add("l2_norm 2x3", "l2_norm", json::object(), {random_input("x", Shape{2, 3}, 24)},
        [](auto in) { return ops::l2_norm(in[0]); });
  w.add("l2_retention 6 by 0.9", "l2_retention", {{"lambda", 0.9f}}, {random_input("x", Shape{6}, 25)},
        [](auto in) { return ops::l2_retention(in[0], 0.9f); });
  w.add("concat rows 2x3 + 1x3", "concat", {{"axis", 0}},
        {random_input("a", Shape{2, 3}, 26), random_input("b", Shape{1, 3}, 27)},
        [](auto in) { return ops::concat(in, 0); });
  w.add("concat cols 2x3 + 2x2", "concat", {{"axis", 1}},
        {random_input("a", Shape{2, 3}, 28), random_input("b", Shape{2, 2}, 29)},
        [](auto in) { return ops::concat(in, 1); });
  w.add("concat vectors 3 + 4 + 2", "concat", {{"axis", 0}},
        {random_input("a", Shape{3}, 30), random_input("b", Shape{4}, 31), random_input("c", Shape{2}, 32)},
        [](auto in) { return ops::concat(in, 0); });
  w.add("slice [3,8) of 3x4", "slice", {{"offset", 3}, {"len", 5}}, {random_input("x", Shape{3, 4}, 33)},
        [](auto in) { return ops::slice(in[0], 3, std::size_t{5}); });
}

void add_nl_ops(CaseWriter& w) {
  {
    Input x = random_input("x", Shape{4, 5}, 40, -3.0f, 3.0f);
    for (std::size_t j = 0; j < 5; ++j) x.data[15 + j] = 0.0f;  // last row: silu = 0, output and gradient 0
    w.add("normalized_silu 4x5, one zero row", "normalized_silu", {{"rows", 4}, {"cols", 5}}, {x},
          [](auto in) { return ops::normalized_silu(in[0]); });
  }
  {
    Input s = random_input("s", Shape{4, 3}, 41);
    for (std::size_t j = 0; j < 3; ++j) s.data[3 + j] = 1e-10f;  // slot 1 degenerate: kept, identity VJP
    w.add("sphere_project_normalize 4 slots x 3, one degenerate", "sphere_project_normalize",
          {{"m_slots", 4}, {"d", 3}}, {s}, [](auto in) { return ops::sphere_project_normalize(in[0]); });
  }
  {
    Input prior = random_input("prior", Shape{3, 4}, 42, 0.05f, 1.0f);
    prior.data[5] = 0.0f;  // below the 1e-8 floor: zero gradient
    w.add("kl_retention 3x4, alpha 0.8, theta 0.6", "kl_retention",
          {{"alpha", 0.8f}, {"theta", 0.6f}, {"rows", 3}, {"cols", 4}},
          {prior, random_input("grad", Shape{3, 4}, 43, -1.0f, 1.0f)},
          [](auto in) { return ops::kl_retention(in[0], in[1], 0.8f, 0.6f); });
  }
  w.add("straight_through_bool 6 at 0.1", "straight_through_bool", {{"threshold", 0.1f}},
        {random_input("x", Shape{6}, 44, -1.0f, 1.0f)}, [](auto in) { return ops::straight_through_bool(in[0], 0.1f); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: tape_torch_dump OUT.json\n";
    return 2;
  }
  CaseWriter w;
  add_standard_ops(w);
  add_nl_ops(w);
  std::ofstream out(argv[1], std::ios::binary);
  out << w.document().dump(1) << '\n';
  out.close();
  if (!out) {
    std::cerr << "tape_torch_dump: cannot write " << argv[1] << '\n';
    return 2;
  }
  return 0;
}
