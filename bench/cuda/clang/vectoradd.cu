// vectoradd without CUB, for clang 19: one element per thread.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
vectorAdd(int n, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
