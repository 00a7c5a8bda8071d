#pragma once
// Freeing an ordered_json DOM leaves first. nlohmann's destructor frees a container by moving
// its children onto a heap-allocated stack of its own (so that deep documents cannot overflow
// the call stack), one allocation and one move per child, for every array and object; a
// stream of records (bp verify multi) pays that on every record. release_json empties the
// containers bottom-up instead, so each one is freed with no children left to move. The
// recursion is as deep as the document, which the strict reader bounds (kMaxJsonNestingDepth);
// deeper documents are left to the destructor.
#include <nlohmann/json.hpp>

namespace common {

// Leaves `doc` null.
void release_json(nlohmann::ordered_json& doc) noexcept;

// release_json(tree) when the scope ends, whichever way it ends: for a tree a function builds
// and drops (an imported receipt once emitted, the members a rule derived).
class ReleasedAtExit {
 public:
  explicit ReleasedAtExit(nlohmann::ordered_json& tree) noexcept : tree_(tree) {}
  ReleasedAtExit(const ReleasedAtExit&) = delete;
  ReleasedAtExit& operator=(const ReleasedAtExit&) = delete;
  ~ReleasedAtExit() { release_json(tree_); }

 private:
  nlohmann::ordered_json& tree_;
};

}  // namespace common
