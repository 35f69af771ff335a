// verdict: ok  block: 32,8  grid: 128,128
// Tiled transpose through a padded shared tile (the CUDA samples' transposeNoBankConflicts).
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[32][33];
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 4096 + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    out[(y + j) * 4096 + x] = tile[threadIdx.x][threadIdx.y + j];
}
