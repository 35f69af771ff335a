// verdict: race  block: 256
// The histogram with the shared atomic replaced by a plain increment: two threads whose data
// fall into one bin both read and write it.
__global__ void histogram256(const unsigned *data, unsigned *bins, unsigned n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    h[data[i] & 255]++;
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
