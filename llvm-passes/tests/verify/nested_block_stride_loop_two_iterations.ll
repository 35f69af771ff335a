; Bug twin of nested_block_stride_loop_one_iteration.ll: the inner loop runs to 2, so thread 1
; runs the body too and reads out[0] while thread 0 writes it.
; ERROR: data race (write-after-read)
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
  %go = icmp slt i32 %i, 2
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
