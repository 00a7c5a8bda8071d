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

}  // namespace common
