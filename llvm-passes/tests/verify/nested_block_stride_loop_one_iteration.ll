; Benign: a block-stride loop (`for i <- range(0, 1)` distributed: `i = tid; i < 1; i += 32`)
; nested in a uniform loop with a barrier at the end of its body. Only thread 0 enters the inner
; loop, so its read of out[0] and its write of out[i] race with no one. The inner loop's exit
; leads back to its header through the outer loop; it once counted as staying in the inner loop,
; so every thread seemed to run the body (seed 5278136241034971265). No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %outer
outer:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %more = icmp slt i32 %k, 2
  br i1 %more, label %inner, label %done
inner:
  %i = phi i32 [ %t, %outer ], [ %i1, %body ]
  %go = icmp slt i32 %i, 1
  br i1 %go, label %body, label %latch
body:
  %x = load i32, ptr addrspace(1) %out, align 4
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  %y = add i32 %x, 1
  store i32 %y, ptr addrspace(1) %p, align 4
  %i1 = add i32 %i, 32
  br label %inner
latch:
  call void @llvm.nvvm.barrier0()
  %k1 = add i32 %k, 1
  br label %outer
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
