// scalar-prod without CUB, for clang 19: one partial dot product per block.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
scalarProd(int n, const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? x[i] * y[i] : 0.0f;
  float total = block_reduce(v, Sum{});
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}
