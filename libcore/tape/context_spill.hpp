#pragma once
// ContextSpill: an optional hook through which a memory budget moves the typed forward state of
// opaque records (a memory rule's cache: (s+1) d^2 floats per level and chunk) out of RAM between
// the forward that made it and the VJP that reads it, and back. Why a hook on the tape: the tape
// alone knows when a context is made and when backward needs it (records run in reverse, so the
// first level recorded is read last: the best one to move out). What a hook does with the bytes
// (a file, a codec, a policy) is the caller's business; the tape only hands them over and takes
// them back, so a tape without a hook (the default) runs exactly as before, and one with a hook
// computes the same bits (the bytes come back as they went).
//
// Errors: a hook that cannot store or fetch throws SpillError (tape_error.hpp); try_with_tape
// returns it as a common::Error of code io.
#include <cstddef>
#include <functional>
#include <vector>

#include "tape/state_pager.hpp"

namespace tape {

class Tape;

// The float fields of a record's context object, visited in a fixed order (a rule cache's
// visit(f)); set by the code that made the context (nl/record_block.cpp).
using ContextFieldsFn = void (*)(void* context, const std::function<void(std::vector<float>&)>& f);

// A record's context as the tape names it to a hook.
struct ContextRef {
  std::size_t op_index = 0;  // into Tape::ops()
  std::size_t bytes = 0;     // its fields' floats, 4 bytes each
};

class ContextSpill {
 public:
  virtual ~ContextSpill() = default;
  // Record r now owns its context, in RAM. The hook may move out any context of t (Tape::take_context),
  // r's included, before it returns.
  virtual void recorded(Tape& t, ContextRef r) = 0;
  // Backward is about to run r's VJP: r's context must be in RAM when this returns (Tape::put_context).
  // The hook may move out others to make room.
  virtual void needed(Tape& t, ContextRef r) = 0;
  // r's VJP ran and its context is freed: nothing will ask for it again.
  virtual void released(Tape& t, ContextRef r) = 0;
  // The same hook's pager for state trajectories (state_pager.hpp), when it pages them (null: it
  // moves whole contexts only). The step's forward installs it on its thread.
  [[nodiscard]] virtual StatePager* state_pager() { return nullptr; }
};

}  // namespace tape
