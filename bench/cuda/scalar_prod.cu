// scalar-prod: one partial dot product per block with CUB's BlockReduce.
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
scalarProd(int n, const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage storage;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? x[i] * y[i] : 0.0f;
  float total = Reduce(storage).Sum(v);
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}
