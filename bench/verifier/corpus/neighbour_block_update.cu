// verdict: interblock  block: 256
// Each thread adds the element of the next block's same thread, which that block updates.
__global__ void smooth(float *a) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  a[g] += a[g + blockDim.x];
}
