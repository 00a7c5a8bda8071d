#pragma once
// A tree read as the rules read a receipt (reconcile::ReadReceipt), owning the tree: the tests
// build receipts as trees and hand them to the rules' read form.
#include <utility>

#include "reconcile/read_json.hpp"

namespace reconcile_test {

class Read {
 public:
  explicit Read(reconcile::Tree tree) : tree_(std::move(tree)), read_(tree_) {}
  Read(const Read&) = delete;
  Read& operator=(const Read&) = delete;

  operator const reconcile::Json&() const { return read_.root(); }            // NOLINT: a tree's stand-in
  operator const reconcile::ReadReceipt&() const { return read_; }            // NOLINT
  [[nodiscard]] const reconcile::Json& root() const { return read_.root(); }
  [[nodiscard]] const reconcile::ReadReceipt& receipt() const { return read_; }

 private:
  reconcile::Tree tree_;
  reconcile::ReadReceipt read_;
};

}  // namespace reconcile_test
