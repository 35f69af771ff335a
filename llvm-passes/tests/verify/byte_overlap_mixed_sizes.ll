; Accesses of different sizes: thread t writes the 4 bytes of s[t] (an i32) and reads the single
; byte at 4t + 5, which lies inside thread t + 1's element. Expected: a race found at byte
; granularity.
; ERROR: data race (read-after-write) on `s`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  store i32 1, ptr addrspace(3) %p, align 4
  %q = getelementptr inbounds i8, ptr addrspace(3) %p, i64 5
  %v = load i8, ptr addrspace(3) %q, align 1
  %out.slot1 = getelementptr inbounds i8, ptr addrspace(1) %out, i32 %t
  store i8 %v, ptr addrspace(1) %out.slot1, align 1
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
