// verdict: ok  block: 256
// A barrier under a branch on a kernel parameter: every thread takes it alike.
__global__ void uniform(float *out, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (n > 4) __syncthreads();
  if (n > 4) out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
