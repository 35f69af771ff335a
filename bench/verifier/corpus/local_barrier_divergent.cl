// verdict: barrier  block: 64
// A work-group barrier inside a branch on the local id.
__kernel void divergent(__global float *out) {
  __local float s[64];
  size_t l = get_local_id(0);
  s[l] = l;
  if (l % 2 == 0) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[63 - l];
}
