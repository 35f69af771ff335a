; An atomic add to s[0] and a plain read of s[0] in the same interval: the plain read races with
; other threads' atomic writes. Expected: a race between the atomic and the load.
; ERROR: data race
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %old = atomicrmw add ptr addrspace(3) @s, i32 1 monotonic
  %v = load i32, ptr addrspace(3) @s, align 4
  %out.slot1 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %out.slot1, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
