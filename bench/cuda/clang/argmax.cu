// Twin of examples/argmax.loom for clang 19 and NVRTC: the index of the largest element of each
// block's slice (the first among equal maxima). The pairs are combined in the order of their
// indices (shuffles from lane + 1, + 2, + 4, ...: the left operand always holds the smaller
// indices), and a lane past the slice's end takes no part.
#include "clang_cuda.h"

struct Best {
  float value;
  int index;
};

static __device__ inline Best better(Best a, Best b) { return b.value > a.value ? b : a; }

static __device__ inline Best shfl_down(Best v, int d) {
  Best b;
  b.value = shfl_down(v.value, d);
  b.index = shfl_down(v.index, d);
  return b;
}

// Lanes 0 .. count - 1 of a warp hold values; lane 0 gets their ordered combination.
static __device__ inline Best warp_better(Best v, unsigned lane, unsigned count, unsigned width) {
  for (unsigned d = 1; d < width; d *= 2) {
    Best other = shfl_down(v, d);
    if (lane + d < count) v = better(v, other);
  }
  return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
argmax(int n, const float* __restrict__ x, int* __restrict__ out) {
  __shared__ Best partial[WARPS];
  int lo = blockIdx.x * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n;
  int len = hi > lo ? hi - lo : 0;
  unsigned lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
  int i = lo + threadIdx.x;
  Best v = {i < hi ? x[i] : 0.0f, i};
  int in_warp = len - (int)(warp * WARP);
  v = warp_better(v, lane, in_warp < 0 ? 0 : in_warp > WARP ? WARP : in_warp, WARP);
  if (lane == 0 && in_warp > 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = partial[lane % WARPS];
    v = warp_better(v, lane, (len + WARP - 1) / WARP, WARPS);
    if (lane == 0 && len > 0) out[blockIdx.x] = v.index;
  }
}
