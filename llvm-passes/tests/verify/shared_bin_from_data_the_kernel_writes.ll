; `h[data[tid] & 255] += 1` as in shared_bin_from_input_data_plain_increment.ll, but the kernel
; also writes `data` (thread t stores `data[t]` afterwards): its contents are not only the input
; any more, so the pair test does not take their values as free, and the updates stay undecided
; warnings (E0852) there. Running block 0 (races/simulate.rs) follows the order of the accesses:
; each thread reads `data[t]` before any thread writes it, so the input's zeros are what they
; read, and threads 0 and 1 both update `h[0]`: a race with that input.
; ERROR: data race (read-after-write) on `h`
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@h = internal addrspace(3) global [256 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %data) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i32 %t
  %v = load i32, ptr addrspace(1) %p, align 4
  %bin = and i32 %v, 255
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @h, i32 0, i32 %bin
  %old = load i32, ptr addrspace(3) %q, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr addrspace(3) %q, align 4
  store i32 0, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
