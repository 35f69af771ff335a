// verdict: ok  block: 256
// The 1-D stencil of radius 3 ("CUDA by Example" / NVIDIA's CUDA C basics): the first three
// threads also load the halos on both sides, then a barrier, then each thread sums 7 elements.
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
  __syncthreads();
  float sum = 0;
  for (int o = -RADIUS; o <= RADIUS; o++) sum += temp[l + o];
  out[g - RADIUS] = sum;
}
