// mul-matr-vec: y = A x, one row per block; each thread strides over the row, then CUB's
// BlockReduce combines the threads' sums.
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
mulMatrVec(int rows, int cols, const float* __restrict__ a, const float* __restrict__ x, float* __restrict__ y) {
  using Reduce = cub::BlockReduce<float, BLOCK>;
  __shared__ typename Reduce::TempStorage storage;
  const float* row = a + (size_t)blockIdx.x * cols;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < cols; j += BLOCK) sum += row[j] * x[j];
  float total = Reduce(storage).Sum(sum);
  if (threadIdx.x == 0) y[blockIdx.x] = total;
}
