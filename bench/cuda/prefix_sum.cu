// Block prefix sum: CUB's BlockScan inclusive sum of each block's slice (zero past n).
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
prefixSum(int n, const int* __restrict__ x, int* __restrict__ out) {
  using Scan = cub::BlockScan<int, BLOCK>;
  __shared__ typename Scan::TempStorage storage;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int v = i < n ? x[i] : 0;
  Scan(storage).InclusiveSum(v, v);
  if (i < n) out[i] = v;
}
