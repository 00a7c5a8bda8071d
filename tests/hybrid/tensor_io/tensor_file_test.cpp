#include "hybrid/tensor_io/tensor_file.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>

using namespace hybrid;

namespace {

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<std::uint8_t> st(const std::string& json, std::size_t data) {
  std::string f(8, '\0');
  for (int k = 0; k < 8; ++k) f[static_cast<std::size_t>(k)] = static_cast<char>((json.size() >> (8 * k)) & 0xff);
  return bytes(f + json + std::string(data, '\x01'));
}

std::vector<std::uint8_t> npy(const std::string& dict, std::size_t data) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string f = std::string("\x93NUMPY\x01\x00", 8);
  f += static_cast<char>(h.size() & 0xff);
  f += static_cast<char>(h.size() >> 8);
  return bytes(f + h + std::string(data, '\x02'));
}

}  // namespace

TEST_CASE("tensor_file: safetensors with metadata, offsets covering the buffer") {
  const auto f = st(R"({"__metadata__":{"a":"b"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                    R"("b":{"dtype":"BF16","shape":[3],"data_offsets":[16,22]}})", 22);
  auto t = parse_safetensors(f, "m.safetensors");
  REQUIRE(t.ok());
  REQUIRE(t->tensors.size() == 2);
  CHECK(t->tensors[0].name == "w");
  CHECK(t->tensors[1].name == "b");
  CHECK(t->tensors[1].length == 6);
  std::vector<std::span<const std::uint8_t>> parts;
  for (const auto& x : t->tensors) parts.emplace_back(f.data() + x.offset, x.length);
  auto back = assemble_tensor_file(*t, parts);
  REQUIRE(back.ok());
  CHECK(*back == f);
}

TEST_CASE("tensor_file: safetensors refusals") {
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", 4), "f").ok());  // size
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8), "f").ok());  // hole
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 5), "f").ok());  // tail
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4), "f").ok());
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}})", 4), "f").ok());
  CHECK_FALSE(parse_safetensors(st(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,0]}})", 0), "f").ok());
  CHECK_FALSE(parse_safetensors(st(R"({"__metadata__":{"a":1}})", 0), "f").ok());
  CHECK_FALSE(parse_safetensors(bytes("\xff\xff\xff\xff\xff\xff\xff\xff{}"), "f").ok());
}

TEST_CASE("tensor_file: a key twice in one object of a safetensors header is refused, naming the key") {
  const std::string w = R"("w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]})";
  // Each header is sound when the last value of a repeated key wins (Python's safetensors keeps
  // the last "w": the first tensor is dropped without a word); we refuse the file.
  struct Case {
    std::string json;
    std::size_t data;
    std::string message;
  } cases[] = {
      {"{" + w + R"(,"w":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", 2, "f: safetensors header /w: key \"w\" appears twice"},
      {R"({"w":{"dtype":"U8","shape":[1],"dtype":"U8","data_offsets":[0,1]}})", 1, "f: safetensors header /w/dtype: key \"dtype\" appears twice"},
      {R"({"__metadata__":{"a":"1","a":"2"},)" + w + "}", 1, "f: safetensors header /__metadata__/a: key \"a\" appears twice"},
      {R"({"a/b~":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a/b~":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", 1,
       "f: safetensors header /a~1b~0: key \"a/b~\" appears twice"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.json);
    auto t = parse_safetensors(st(c.json, c.data), "f");
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().code() == common::ErrorCode::malformed);
    CHECK(t.error().to_string() == c.message);
  }
  // The same key in different objects is no duplicate.
  CHECK(parse_safetensors(st(R"({"__metadata__":{"w":"x"},)" + w + "}", 1), "f").ok());
}

TEST_CASE("tensor_file: npy dict literal, shapes, versions") {
  auto a = parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48), "a", "a.npy");
  REQUIRE(a.ok());
  CHECK(a->tensors.at(0).shape == std::vector<std::uint64_t>{3, 4});
  CHECK(a->tensors.at(0).length == 48);
  auto s = parse_npy(npy("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 8), "s", "s.npy");
  REQUIRE(s.ok());
  CHECK(s->tensors.at(0).length == 8);
  auto one = parse_npy(npy("{'descr': '|u1', 'fortran_order': True, 'shape': (5,), }", 5), "o", "o.npy");
  CHECK(one.ok());
  CHECK_FALSE(parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 47), "a", "a.npy").ok());
  CHECK_FALSE(parse_npy(npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8), "a", "a.npy").ok());
  CHECK_FALSE(parse_npy(npy("{'descr': '<f4', 'shape': (1,), }", 4), "a", "a.npy").ok());
  CHECK_FALSE(parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4), "a", "a.npy").ok());
  CHECK_FALSE(parse_npy(npy("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,), }", 4), "a", "a.npy").ok());
}

TEST_CASE("tensor_file: random and truncated inputs are refused, never a crash") {
  const auto good = st(R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})", 16);
  const auto goodn = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    auto f = (i % 2 ? good : goodn);
    const std::size_t flips = 1 + rng() % 4;
    for (std::size_t k = 0; k < flips; ++k) f[rng() % f.size()] = static_cast<std::uint8_t>(rng());
    if (i % 3 == 0) f.resize(rng() % f.size());
    auto r = parse_tensor_file(f, "x", "x");
    if (r.ok()) {  // what parses must describe the file exactly
      std::uint64_t end = r->header.size();
      for (const auto& t : r->tensors) end = std::max(end, t.offset + t.length);
      CHECK(end == f.size());
    }
  }
}
