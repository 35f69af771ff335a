// verdict: ok  block: 256
// reduce4/5's last warp, written for independent thread scheduling: each step reads, then
// __syncwarp, then writes, then __syncwarp (the CUDA programming guide's advice for Volta).
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
    float v = s[t] + s[t + 32];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 16];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 8];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 4];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 2];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v += s[t + 1];
    if (t == 0) out[blockIdx.x] = v;
  }
}
