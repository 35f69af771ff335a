; Benign: the uniform-store pattern loomc emits, `if (tid == 0) s[0] = v;`, then a barrier, then
; every thread reads s[0]. A single thread writes, so it races with no one; the barrier orders the
; reads after it. No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k(i32 %v, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %join
store:
  store i32 %v, ptr addrspace(3) @s, align 4
  br label %join
join:
  call void @llvm.nvvm.barrier0()
  %x = load i32, ptr addrspace(3) @s, align 4
  %i = zext i32 %t to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %x, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
