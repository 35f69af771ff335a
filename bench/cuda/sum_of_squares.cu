// sumOfSquares: one partial sum of squares per block with CUB's BlockReduce.
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
sumOfSquares(const float* __restrict__ in, float* __restrict__ out) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage storage;
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  float total = Reduce(storage).Sum(v * v);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
