// The CPU backend benchmark's two kernels in OpenCL C, for PoCL (bench/opencl/pocl_bench.c):
// the same work as examples/saxpy.loom and examples/sum_of_squares.loom, 256 work-items per
// group, as a CUDA or OpenCL programmer would write them without warp shuffles.

// y <- a * x + y, one element per work-item.
__kernel void saxpy(int n, float a, __global const float *x, __global float *y) {
  int i = get_global_id(0);
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

// One sum of squares per group of 256: each work-item squares its element into local memory,
// then a tree reduction with a barrier per level; work-item 0 stores the group's sum.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void sumOfSquares(__global const float *in, __global float *out) {
  __local float t[256];
  int lid = get_local_id(0);
  float v = in[get_global_id(0)];
  t[lid] = v * v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int width = 128; width > 0; width >>= 1) {
    if (lid < width) {
      t[lid] += t[lid + width];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    out[get_group_id(0)] = t[0];
  }
}
