// Shared by the CUB-free references that clang 19 and NVRTC compile (the clang columns of
// scripts/bench-static and scripts/bench-compile, NVRTC's column of the latter): the few CUDA
// names they use, mapped onto clang's NVVM builtins, because clang cannot read the CUDA 13
// headers (it compiles with -nocudainc -nocudalib), and the block-wide reduce and scan the way a
// CUDA programmer writes them by hand: warp shuffles, then one shared stage. NVRTC
// (__CUDACC_RTC__) knows the CUDA names already; only the shuffles and fmaxf are spelled its way.
#pragma once
#ifndef __CUDACC_RTC__
#include <__clang_cuda_builtin_vars.h> // threadIdx, blockIdx (clang's own header)

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
#endif

constexpr int BLOCK = 256;
constexpr int WARP = 32;
constexpr int WARPS = BLOCK / WARP;
constexpr unsigned FULL_MASK = 0xffffffffu;

// __syncthreads() is a clang builtin already (bar.sync 0).

#ifdef __CUDACC_RTC__
static __device__ inline float shfl_down(float v, int d) { return __shfl_down_sync(FULL_MASK, v, d); }
static __device__ inline float shfl_up(float v, int d) { return __shfl_up_sync(FULL_MASK, v, d); }
static __device__ inline int shfl_up(int v, int d) { return __shfl_up_sync(FULL_MASK, v, d); }
static __device__ inline double shfl_up(double v, int d) { return __shfl_up_sync(FULL_MASK, v, d); }
#define __builtin_fmaxf fmaxf
#define __FLT_MAX__ 3.40282347e+38f
#else
static __device__ inline float shfl_down(float v, int d) {
  return __nvvm_shfl_sync_down_f32(FULL_MASK, v, d, 0x1f);
}
static __device__ inline float shfl_up(float v, int d) {
  return __nvvm_shfl_sync_up_f32(FULL_MASK, v, d, 0);
}
static __device__ inline int shfl_up(int v, int d) {
  return __nvvm_shfl_sync_up_i32(FULL_MASK, v, d, 0);
}
// A double travels as its two 32-bit halves, as CUDA's __shfl_up_sync does it.
static __device__ inline double shfl_up(double v, int d) {
  long long bits = __builtin_bit_cast(long long, v);
  int lo = __nvvm_shfl_sync_up_i32(FULL_MASK, (int)bits, d, 0);
  int hi = __nvvm_shfl_sync_up_i32(FULL_MASK, (int)(bits >> 32), d, 0);
  return __builtin_bit_cast(double, ((long long)hi << 32) | (unsigned)lo);
}
#endif

// What the examples' twins need beyond shuffles of one direction: shuffles of ints and by
// index, 32- and 64-bit atomics, the GPU-wide fence and libdevice's expf (which clang links
// from libdevice.10.bc: bench/compile_examples.rs passes it where a twin names `__nv_`).
#ifdef __CUDACC_RTC__
static __device__ inline int shfl_down(int v, int d) { return __shfl_down_sync(FULL_MASK, v, d); }
static __device__ inline float shfl_idx(float v, int l) { return __shfl_sync(FULL_MASK, v, l); }
static __device__ inline int shfl_idx(int v, int l) { return __shfl_sync(FULL_MASK, v, l); }
static __device__ inline int atomic_add(int* p, int v) { return atomicAdd(p, v); }
static __device__ inline unsigned atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
static __device__ inline unsigned long long atomic_add(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, v);
}
static __device__ inline unsigned long long atomic_exch(unsigned long long* p, unsigned long long v) {
  return atomicExch(p, v);
}
static __device__ inline unsigned long long atomic_read(unsigned long long* p) { return atomicOr(p, 0ull); }
#define __nv_expf expf
static __device__ inline unsigned float_bits(float v) { return __float_as_uint(v); }
static __device__ inline float bits_float(unsigned v) { return __uint_as_float(v); }
#else
extern "C" __device__ float __nv_expf(float);
static __device__ inline int shfl_down(int v, int d) {
  return __nvvm_shfl_sync_down_i32(FULL_MASK, v, d, 0x1f);
}
static __device__ inline float shfl_idx(float v, int l) {
  return __nvvm_shfl_sync_idx_f32(FULL_MASK, v, l, 0x1f);
}
static __device__ inline int shfl_idx(int v, int l) {
  return __nvvm_shfl_sync_idx_i32(FULL_MASK, v, l, 0x1f);
}
static __device__ inline int atomic_add(int* p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ inline unsigned atomic_add(unsigned* p, unsigned v) {
  return __nvvm_atom_add_gen_i((int*)p, (int)v);
}
static __device__ inline unsigned long long atomic_add(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_add_gen_ll((long long*)p, (long long)v);
}
static __device__ inline unsigned long long atomic_exch(unsigned long long* p, unsigned long long v) {
  return __nvvm_atom_xchg_gen_ll((long long*)p, (long long)v);
}
static __device__ inline unsigned long long atomic_read(unsigned long long* p) {
  return __nvvm_atom_or_gen_ll((long long*)p, 0);
}
static __device__ inline void __threadfence() { __nvvm_membar_gl(); }
static __device__ inline unsigned float_bits(float v) { return __builtin_bit_cast(unsigned, v); }
static __device__ inline float bits_float(unsigned v) { return __builtin_bit_cast(float, v); }
#endif

struct Sum {
  template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return __builtin_fmaxf(a, b); }
};

// The block's reduction of v, valid in thread 0: each warp reduces with shuffles, its lane 0
// writes the warp's value to shared memory, and warp 0 reduces those WARPS values.
template <typename T, typename Op> static __device__ inline T block_reduce(T v, Op op) {
  __shared__ T partial[WARPS];
  for (int d = WARP / 2; d > 0; d /= 2) v = op(v, shfl_down(v, d));
  unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = partial[lane % WARPS];
    for (int d = WARPS / 2; d > 0; d /= 2) v = op(v, shfl_down(v, d));
  }
  return v;
}

// The block's inclusive sum: each warp scans with shuffles, lane 31 writes the warp's total to
// shared memory, and each thread adds the totals of the warps before its own.
template <typename T> static __device__ inline T block_inclusive_sum(T v) {
  __shared__ T totals[WARPS];
  unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  for (int d = 1; d < WARP; d *= 2) {
    T up = shfl_up(v, d);
    if (lane >= (unsigned)d) v += up;
  }
  if (lane == WARP - 1) totals[warp] = v;
  __syncthreads();
  T before = 0;
  for (unsigned w = 0; w < WARPS; ++w)
    if (w < warp) before += totals[w];
  return v + before;
}
