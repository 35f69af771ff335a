// verdict: barrier  block: 256
// A barrier only the first half of the block reaches.
__global__ void half(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 128) __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
