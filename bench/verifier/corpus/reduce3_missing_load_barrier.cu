// verdict: race  block: 256
// reduce3 without the barrier after the load: thread 0 adds s[128] before thread 128 stored it.
__global__ void reduce3(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + t;
  s[t] = in[i] + in[i + blockDim.x];
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
