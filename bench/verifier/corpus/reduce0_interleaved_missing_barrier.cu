// verdict: race  block: 256
// reduce0 with the barrier in its loop forgotten: thread 0 reads s[2] (d = 2) while thread 2
// still adds s[3] into it (d = 1).
__global__ void reduce0(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    if (t % (2 * d) == 0) s[t] += s[t + d];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
