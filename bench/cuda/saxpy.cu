// saxpy: y = a * x + y, one element per thread. No --use_fast_math: like LOOM's default, the
// multiply and the add are separate IEEE operations (nvcc contracts them into an fma by default;
// -fmad=false keeps the comparison exact).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
