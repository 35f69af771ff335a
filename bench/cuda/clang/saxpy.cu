// saxpy without CUB, for clang 19: y = a * x + y, one element per thread (contracted into an
// fma or not as the command line says: -ffp-contract).
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
