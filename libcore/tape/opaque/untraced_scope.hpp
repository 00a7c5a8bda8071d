#pragma once
// UntracedScope: while it lives, no tape records on this thread (active_tape() is null), and the
// tape that was active comes back when it ends. An opaque block computes its forward inside one,
// so the ops it uses internally never reach the tape: the block's registered VJP must be the
// only gradient path through it (seed Test Class 1).
#include "tape/tape.hpp"

namespace tape::opaque {

class UntracedScope {
 public:
  UntracedScope() noexcept : paused_(detail::active) { detail::active = nullptr; }
  ~UntracedScope() { detail::active = paused_; }
  UntracedScope(const UntracedScope&) = delete;
  UntracedScope& operator=(const UntracedScope&) = delete;

 private:
  Tape* paused_;
};

}  // namespace tape::opaque
