// Twin of examples/shift_left1.loom for clang 19 and NVRTC: the same shift, as a branch on the
// block.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
shiftLeft1(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (blockIdx.x > 0)
    out[i] = in[i - BLOCK];
  else
    out[i] = 0.0f;
}
