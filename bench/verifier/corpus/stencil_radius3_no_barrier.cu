// verdict: race  block: 256
// The radius-3 stencil with its barrier forgotten: thread 0 reads temp[6], which thread 3
// writes.
#define RADIUS 3
__global__ void stencil_1d(const float *in, float *out) {
  __shared__ float temp[256 + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  int l = threadIdx.x + RADIUS;
  temp[l] = in[g];
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = in[g - RADIUS];
    temp[l + 256] = in[g + 256];
  }
  float sum = 0;
  for (int o = -RADIUS; o <= RADIUS; o++) sum += temp[l + o];
  out[g - RADIUS] = sum;
}
