// Twin of examples/shift_left.loom for clang 19 and NVRTC: out shifted left by one block, zero
// where the read falls before the array.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
shiftLeft(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * BLOCK + threadIdx.x, from = i - BLOCK;
  out[i] = from >= 0 ? in[from] : 0.0f;
}
