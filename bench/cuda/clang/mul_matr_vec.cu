// mul-matr-vec without CUB, for clang 19: y = A x, one row per block; each thread strides over
// the row, then the block reduces the threads' sums.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
mulMatrVec(int rows, int cols, const float* __restrict__ a, const float* __restrict__ x, float* __restrict__ y) {
  const float* row = a + (unsigned long)blockIdx.x * cols;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < cols; j += BLOCK) sum += row[j] * x[j];
  float total = block_reduce(sum, Sum{});
  if (threadIdx.x == 0) y[blockIdx.x] = total;
}
