// Twin of examples/transpose.loom for clang 19 and NVRTC: a 16 x 16 tile read along rows of a,
// through shared memory, written along rows of out, transposed.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
transposeMatrix(int rows, int cols, const float* __restrict__ a, float* __restrict__ out) {
  __shared__ float t[16][16];
  int ty = threadIdx.y, tx = threadIdx.x;
  int r = blockIdx.y * 16 + ty, c = blockIdx.x * 16 + tx;
  t[ty][tx] = r < rows && c < cols ? a[r * cols + c] : 0.0f;
  __syncthreads();
  int orow = blockIdx.x * 16 + ty, ocol = blockIdx.y * 16 + tx;
  if (orow < cols && ocol < rows) out[orow * rows + ocol] = t[tx][ty];
}
