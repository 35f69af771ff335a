// sumOfSquares without CUB, for clang 19: one partial sum of squares per block.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
sumOfSquares(const float* __restrict__ in, float* __restrict__ out) {
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  float total = block_reduce(v * v, Sum{});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
