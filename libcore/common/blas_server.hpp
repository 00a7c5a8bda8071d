#pragma once
// OpenBLAS (pthreads build) starts its worker threads when the library is loaded, and each one
// spins on sched_yield for about 2^28 cycles (0.1 s) before it sleeps, whether or not the
// process ever multiplies a matrix. Every tool start therefore burnt (cores - 1) x 0.1 s of CPU:
// bp verify general on a 6 MB receipt took 198 ms of CPU for 98 ms of work, and on a 16-core
// machine a 0.1 s bp run would take 1.6 s of CPU. The tools end those threads as they start;
// OpenBLAS makes them again on the first product that asks for several threads.
namespace common {

// Ends OpenBLAS's idle server threads when the linked BLAS is OpenBLAS with its own thread
// server (found by name at run time, so any CBLAS still links); returns whether it did. Call
// it before the process starts threads of its own that use BLAS.
bool end_idle_blas_threads() noexcept;

// Makes sure the BLAS library is loaded before its entry points are looked up by name (dlsym):
// a tool that opens it on first use (bp: apps/bp/lazy_blas) opens it here; linked as usual, it
// already is, and this does nothing.
void load_blas() noexcept;

}  // namespace common
