// verdict: race  block: 256
// The old samples' warpReduce: the last warp unrolled through a volatile pointer without
// __syncwarp, correct only under lock-step warps; thread 0 reads s[16] while thread 16 writes it.
__global__ void reduce5(const float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned d = 128; d > 32; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t < 32) {
    volatile float *v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
