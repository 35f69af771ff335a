// The CUDA names the corpus kernels use, mapped to clang's NVVM builtins, so that clang 19
// compiles them without a CUDA installation (`-nocudainc -nocudalib`).
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((launch_bounds(n)))
// threadIdx, blockIdx, blockDim, gridDim: clang's own header (its resource directory), read
// one coordinate at a time, so a 1-D kernel reads no y or z.
#include <__clang_cuda_builtin_vars.h>
#define __syncthreads() __nvvm_bar_sync(0)
#define __syncwarp() __nvvm_bar_warp_sync(0xffffffffu)
__device__ inline int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ inline unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
__device__ inline float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ inline int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ inline int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
__device__ inline float __shfl_down_sync(unsigned m, float v, int o) { return __nvvm_shfl_sync_down_f32(m, v, o, 0x1f); }
