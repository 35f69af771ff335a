// Block suffix sum without CUB, for clang 19: the inclusive right scan of each block's slice, as
// an inclusive sum over the slice read backwards (thread t takes element BLOCK - 1 - t), in double.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
suffixSum(int n, const double* __restrict__ x, double* __restrict__ out) {
  int i = blockIdx.x * BLOCK + (BLOCK - 1 - threadIdx.x);
  double v = i < n ? x[i] : 0.0;
  v = block_inclusive_sum(v);
  if (i < n) out[i] = v;
}
