// newton-sqrt without CUB, for clang 19: 20 Newton steps towards sqrt(x), one element per thread.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
newtonSqrt(int n, const float* __restrict__ x, float* __restrict__ out) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float g = v * 0.5f + 0.5f;
  for (int k = 0; k < 20; ++k) g = 0.5f * (g + v / g);
  out[i] = g;
}
