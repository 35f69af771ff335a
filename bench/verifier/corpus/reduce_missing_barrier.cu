// verdict: race  block: 256
// The tree reduction with the barrier inside the loop forgotten.
__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned d = 128; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
