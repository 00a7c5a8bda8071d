#pragma once
// Data built once and then read by every thread (a compiled schema), allocated apart from what
// the threads go on writing.
//
// An allocator that gives each thread pages of its own (mimalloc, the tools' allocator) puts a
// long-lived block beside the short-lived ones its thread allocates afterwards. One cache line then
// holds what the other threads read on every record and what this thread writes on every record,
// and each such write takes the line away from the readers (false sharing). bp verify multi
// --jobs 2 spent 25% more CPU a record than --jobs 1; with the compiled schemas built apart it
// spends 10% more (perf stat -r 5, 3,000 records of 7 KB: 182 -> 162 ms; 1 job 146-147 ms both).
//
// build_resident(build) runs `build` with the calling thread's allocations taken from a heap that
// nothing else allocates from, when the program installed a way to do that (the tools do when
// linked with mimalloc: apps/resident_heap.cpp); otherwise it runs `build` as it is. What `build`
// allocates is freed as usual, from any thread; an exception from `build` propagates.
#include <functional>

namespace common {

// Runs `build` on the calling thread with that thread's allocations taken from a heap of their own.
using ResidentRunner = void (*)(const std::function<void()>& build);

// Installs (or, with nullptr, removes) the runner; meant for a program's static initialisation,
// before any thread builds resident data.
void install_resident_runner(ResidentRunner runner);

void build_resident(const std::function<void()>& build);

}  // namespace common
