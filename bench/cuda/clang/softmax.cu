// Twin of examples/softmax.loom for clang 19 and NVRTC: one row per block; the row's maximum,
// then the sum of exp(a - max), each a block reduction given to every thread through a shared
// slot, then exp(a - max) again for each element over the sum (libdevice's expf).
#include "clang_cuda.h"

template <typename Op> static __device__ inline float block_all(float v, Op op) {
  __shared__ float result;
  v = block_reduce(v, op);
  if (threadIdx.x == 0) result = v;
  __syncthreads();
  v = result;
  __syncthreads();
  return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
softmax(int rows, int cols, const float* __restrict__ a, float* __restrict__ out) {
  const float* row = a + (unsigned long)blockIdx.x * cols;
  float* to = out + (unsigned long)blockIdx.x * cols;
  float m = -__FLT_MAX__;
  for (int j = threadIdx.x; j < cols; j += BLOCK) m = __builtin_fmaxf(m, row[j]);
  m = block_all(m, Max{});
  float s = 0.0f;
  for (int j = threadIdx.x; j < cols; j += BLOCK) s += __nv_expf(row[j] - m);
  s = block_all(s, Sum{});
  for (int j = threadIdx.x; j < cols; j += BLOCK) to[j] = __nv_expf(row[j] - m) / s;
}
