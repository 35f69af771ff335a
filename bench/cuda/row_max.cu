// rowMax: the maximum of each row, one row per block; threads stride over the row, then CUB's
// BlockReduce with cuda::maximum.
#include "common.cuh"
#include <cfloat>

extern "C" __global__ void __launch_bounds__(BLOCK)
rowMax(int rows, int cols, const float* __restrict__ a, float* __restrict__ out) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage storage;
  const float* row = a + (size_t)blockIdx.x * cols;
  float m = -FLT_MAX;
  for (int j = threadIdx.x; j < cols; j += BLOCK) m = fmaxf(m, row[j]);
  float total = Reduce(storage).Reduce(m, cuda::maximum<float>{});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}
