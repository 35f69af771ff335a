// vectoradd, as an expert writes it: one element per thread, restrict pointers (read-only
// loads through the non-coherent cache).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
vectorAdd(int n, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
