// Block suffix sum: the inclusive right scan of each block's slice, as CUB's BlockScan over the
// slice read backwards (thread t takes element BLOCK - 1 - t), in double.
#include "common.cuh"

extern "C" __global__ void __launch_bounds__(BLOCK)
suffixSum(int n, const double* __restrict__ x, double* __restrict__ out) {
  using Scan = cub::BlockScan<double, BLOCK>;
  __shared__ typename Scan::TempStorage storage;
  int i = blockIdx.x * BLOCK + (BLOCK - 1 - threadIdx.x);
  double v = i < n ? x[i] : 0.0;
  Scan(storage).InclusiveSum(v, v);
  if (i < n) out[i] = v;
}
