// Twin of examples/bitonic_sort.loom for clang 19 and NVRTC: each block sorts its BLOCK
// elements in shared memory with a bitonic network, positions past n padded with the largest
// int; a barrier between each step's reads and its writes, and after the writes.
#include "clang_cuda.h"

extern "C" __global__ void __launch_bounds__(BLOCK)
bitonicSort(int n, const int* __restrict__ x, int* __restrict__ out) {
  __shared__ int t[BLOCK];
  int lane = threadIdx.x, i = blockIdx.x * BLOCK + lane;
  t[lane] = i < n ? x[i] : 2147483647;
  __syncthreads();
  for (int k = 2; k <= BLOCK; k *= 2)
    for (int j = k / 2; j > 0; j /= 2) {
      int mine = t[lane], other = t[lane ^ j];
      bool up = ((lane & j) == 0) == ((lane & k) == 0);
      __syncthreads();
      t[lane] = up == (mine < other) ? mine : other;
      __syncthreads();
    }
  if (i < n) out[i] = t[lane];
}
