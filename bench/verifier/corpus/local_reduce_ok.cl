// verdict: ok  block: 128
// Work-group tree reduction in a __local array (the AMD/NVIDIA OpenCL samples' pattern).
__kernel void reduce(__global const float *in, __global float *out) {
  __local float s[128];
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 64; d > 0; d >>= 1) {
    if (l < d) s[l] += s[l + d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = s[0];
}
