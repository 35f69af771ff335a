// verdict: race  block: 128
// The work-group scan without the barrier between the read and the add: work-item l + d reads
// s[l] while work-item l adds into it (with d = 64: work-item 64 reads s[0], 0 writes it).
__kernel void scan(__global const float *in, __global float *out) {
  __local float s[128];
  size_t l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t d = 1; d < 128; d *= 2) {
    float x = l >= d ? s[l - d] : 0.0f;
    s[l] += x;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = s[l];
}
