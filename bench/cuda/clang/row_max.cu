// rowMax without CUB, for clang 19: the maximum of each row, one row per block; threads stride
// over the row, then the block reduces with fmaxf.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
rowMax(int rows, int cols, const float* __restrict__ a, float* __restrict__ out) {
  const float* row = a + (unsigned long)blockIdx.x * cols;
  float m = -__FLT_MAX__;
  for (int j = threadIdx.x; j < cols; j += BLOCK) m = __builtin_fmaxf(m, row[j]);
  float total = block_reduce(m, Max{});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
