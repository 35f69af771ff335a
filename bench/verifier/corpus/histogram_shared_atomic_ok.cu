// verdict: ok  block: 256
// A block-private histogram with shared atomics, then one global atomic per bin.
__global__ void histogram(const unsigned char *data, unsigned *bins) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  unsigned v = data[blockIdx.x * 256 + threadIdx.x];
  atomicAdd(&local[v], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
