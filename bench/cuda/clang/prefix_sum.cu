// Block prefix sum without CUB, for clang 19: the inclusive sum of each block's slice (zero past n).
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
prefixSum(int n, const int* __restrict__ x, int* __restrict__ out) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? x[i] : 0;
  v = block_inclusive_sum(v);
  if (i < n) out[i] = v;
}
