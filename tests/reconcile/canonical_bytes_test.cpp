// A receipt read for the rules (reconcile::Json, from its text) is written canonically as it is:
// the same bytes, or the same refusal (message and JSON Pointer), as its tree gives the tree
// emitter. Rule 17 hashes every record of a bundle that way.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "common/json_document_reader.hpp"
#include "receipt/emit/emit_receipt.hpp"
#include "receipt/emit/general_line.hpp"
#include "reconcile/read_json.hpp"
#include "reconcile/rules/attest_digest.hpp"
#include "support/suite_paths.hpp"

namespace canonical_bytes_test {

using Tree = reconcile::Tree;

// What one emission gave: its line, or its refusal's message and place.
std::string outcome(const common::Result<std::string>& line) {
  if (line) return "ok " + *line;
  return "error " + line.error().message() + " at " + line.error().where().json_path;
}

std::string from_document(const Tree& tree) {
  auto doc = common::parse_json_document(tree.dump());
  REQUIRE(doc.ok());
  const reconcile::ReadReceipt read(std::move(*doc));
  return outcome(receipt::emit::emit_general_receipt_line(read.root()));
}

// The JSON Pointers of every value under `v`.
void paths(const Tree& v, const Tree::json_pointer& at, std::vector<Tree::json_pointer>& out) {
  out.push_back(at);
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) paths(it.value(), at / it.key(), out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) paths(v[i], at / i, out);
  }
}

std::vector<Tree> general_records() {
  std::vector<Tree> records;
  for (const char* name : {"iris.golden.jsonl", "xor.golden.jsonl", "xor.multi-step.jsonl", "softmax-ce.golden.jsonl",
                           "xor-per-neuron-bias.golden.jsonl"}) {
    std::ifstream in(suite_test::source_dir() + "/fixtures/" + name);
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) records.push_back(Tree::parse(line));
    }
  }
  return records;
}

}  // namespace canonical_bytes_test

namespace cbt = canonical_bytes_test;

TEST_CASE("canonical bytes: a receipt read from its text gives its tree's line, on every general fixture record") {
  const auto records = cbt::general_records();
  REQUIRE(records.size() >= 6);
  for (const auto& r : records) {
    const std::string want = cbt::outcome(receipt::emit::emit_receipt_line(r));
    CHECK(want.starts_with("ok "));
    CHECK(cbt::from_document(r) == want);
    // And the rules' entry point (Rule 17): the same bytes.
    auto doc = common::parse_json_document(r.dump());
    REQUIRE(doc.ok());
    const reconcile::ReadReceipt read(std::move(*doc));
    const auto bytes = reconcile::rules::canonical_bytes(read.root());
    CHECK(bytes.ok);
    CHECK("ok " + bytes.text == want);
  }
}

TEST_CASE("canonical bytes: 1,500 edited receipts give the tree's line or the tree's refusal, at the same place") {
  using Tree = reconcile::Tree;
  const auto records = cbt::general_records();
  // Values a field may wrongly hold, numbers outside the canonical range among them.
  const std::vector<Tree> replacements = {Tree(nullptr), Tree("x"),  Tree(1e-20), Tree(1e9),         Tree(true),
                                          Tree::array(), Tree::object(), Tree(0.5), Tree(-3),        Tree(7u),
                                          Tree::parse(R"(["a","b"])"),   Tree::parse(R"({"k":1})")};
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state](std::size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((state >> 33) % n);
  };
  std::size_t refused = 0;
  for (int round = 0; round < 1500; ++round) {
    Tree r = records[next(records.size())];
    std::vector<Tree::json_pointer> at;
    cbt::paths(r, Tree::json_pointer(), at);
    for (int edit = 0, edits = 1 + static_cast<int>(next(2)); edit < edits; ++edit) {
      const Tree::json_pointer p = at[1 + next(at.size() - 1)];
      if (!r.contains(p)) continue;  // under an earlier edit
      Tree& v = r[p];
      switch (next(3)) {
        case 0: v = replacements[next(replacements.size())]; break;
        case 1: {  // the member or element removed
          Tree& parent = r[p.parent_pointer()];
          if (parent.is_object()) {
            parent.erase(p.back());
          } else {
            parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
          }
          break;
        }
        default:  // an object's members in the reverse order (the emitter writes the layout's)
          if (v.is_object()) {
            std::vector<std::pair<std::string, Tree>> members;
            for (auto it = v.begin(); it != v.end(); ++it) members.emplace_back(it.key(), it.value());
            Tree reversed = Tree::object();
            for (auto m = members.rbegin(); m != members.rend(); ++m) reversed[m->first] = m->second;
            v = std::move(reversed);
          }
      }
    }
    const std::string want = cbt::outcome(receipt::emit::emit_receipt_line(r));
    if (want.starts_with("error ")) ++refused;
    CAPTURE(r.dump());
    REQUIRE(cbt::from_document(r) == want);
  }
  CHECK(refused > 500);
  CHECK(refused < 1450);
}
