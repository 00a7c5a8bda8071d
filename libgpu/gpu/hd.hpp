#pragma once
// GPU_HD marks a kernel body: __host__ __device__ under nvcc, plain C++ elsewhere, so one source
// runs in the CUDA launcher and in the CPU launcher (and its tests) alike.
#if defined(__CUDACC__)
#define GPU_HD __host__ __device__
#else
#define GPU_HD
#endif
