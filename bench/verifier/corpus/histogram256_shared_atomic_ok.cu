// verdict: ok  block: 256
// The CUDA samples' histogram256 pattern, one sub-histogram per block: clear it, count with
// shared atomics over a grid-stride loop, then merge each bin into global memory atomically.
__global__ void histogram256(const unsigned *data, unsigned *bins, unsigned n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[data[i] & 255], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
