// Twin of examples/tiled_matmul.loom for clang 19 and NVRTC: c = a * b, one 16 x 16 tile of c
// per block of a 2-D grid of 16 x 16 threads; each step stages a tile of a and of b in shared
// memory (zero outside the matrices), with a barrier after the stores and one before the next.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
matmul(int n, int k, int m, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  __shared__ float ta[16][16], tb[16][16];
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < (k + 15) / 16; ++t) {
    int ak = t * 16 + tx, bk = t * 16 + ty;
    ta[ty][tx] = row < n && ak < k ? a[row * k + ak] : 0.0f;
    tb[ty][tx] = bk < k && col < m ? b[bk * m + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < 16; ++i) acc += ta[ty][i] * tb[i][tx];
    __syncthreads();
  }
  if (row < n && col < m) c[row * m + col] = acc;
}
