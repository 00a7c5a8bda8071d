// reconcile::MemberIndex answers what member() answers, for a tree and for the rules' read form,
// below the size it starts indexing from and above it: every key, a missing key, a key that is a
// prefix of another, an empty key, a non-object and no object at all.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "read_tree.hpp"
#include "reconcile/json_access.hpp"
#include "reconcile/member_index.hpp"

namespace member_index_test {  // named: the files of its unity batch have helpers and aliases of their own
namespace {

using reconcile::Tree;

// "k<i>", appended (GCC 12 warns falsely of overlap on "k" + std::to_string(i)).
std::string key_of(int i) {
  std::string key = "k";
  key += std::to_string(i);
  return key;
}

// An object of `n` members "k0".."k<n-1>" (and "" when n > 3), each holding its position.
Tree object_of(int n) {
  Tree t = Tree::object();
  for (int i = 0; i < n; ++i) t[key_of(i)] = i;
  if (n > 3) t[""] = -1;
  return t;
}

std::vector<std::string> probes(int n) {
  std::vector<std::string> keys = {"", "k", "missing", key_of(n), "k00"};
  for (int i = 0; i < n; ++i) keys.push_back(key_of(i));
  return keys;
}

}  // namespace
}  // namespace member_index_test

TEST_CASE("member_index: a tree's index finds what member() finds, below and above its threshold") {
  for (const int n : {0, 1, 5, 15, 16, 17, 40, 300}) {
    CAPTURE(n);
    const reconcile::Tree t = member_index_test::object_of(n);
    const reconcile::MemberIndex<reconcile::Tree> index(&t);
    for (const std::string& key : member_index_test::probes(n)) {
      CAPTURE(key);
      CHECK(index.find(key) == reconcile::member(t, key));
    }
  }
  const reconcile::Tree array = reconcile::Tree::array({1, 2, 3});
  CHECK(reconcile::MemberIndex<reconcile::Tree>(&array).find("0") == nullptr);
  CHECK(reconcile::MemberIndex<reconcile::Tree>(nullptr).find("k0") == nullptr);
}

TEST_CASE("member_index: the rules' read form's index finds what member() finds, below and above its threshold") {
  for (const int n : {0, 1, 5, 15, 16, 17, 40, 300}) {
    CAPTURE(n);
    const reconcile_test::Read read(member_index_test::object_of(n));
    const reconcile::Json& root = read.root();
    const reconcile::MemberIndex<reconcile::Json> index(&root);
    for (const std::string& key : member_index_test::probes(n)) {
      CAPTURE(key);
      const reconcile::Json* found = index.find(key);
      CHECK(found == reconcile::member(root, key));
      if (found != nullptr && key != "") CHECK(found->integer() == std::stoi(key.substr(1)));
    }
  }
  const reconcile_test::Read array(reconcile::Tree::array({1, 2, 3}));
  CHECK(reconcile::MemberIndex<reconcile::Json>(&array.root()).find("0") == nullptr);
  CHECK(reconcile::MemberIndex<reconcile::Json>(nullptr).find("k0") == nullptr);
}

TEST_CASE("member_index: a filler makes the object operator[] makes, repeated keys in their first place") {
  for (const int n : {0, 1, 5, 40}) {
    CAPTURE(n);
    std::vector<std::string> keys;
    for (int i = n; i-- > 0;) keys.push_back(member_index_test::key_of(i));
    if (n > 3) {
      keys.push_back(member_index_test::key_of(2));  // again: a new value at its first place
      keys.push_back("");
    }
    reconcile::Tree expected = reconcile::Tree::object();
    reconcile::Tree filled = reconcile::Tree::object();
    reconcile::MemberFiller filler(filled, keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
      expected[keys[k]] = k;
      filler.assign(keys[k], k);
    }
    CHECK(filled.dump() == expected.dump());
  }
}
