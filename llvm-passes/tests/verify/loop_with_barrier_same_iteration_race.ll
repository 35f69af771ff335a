; Bug twin of loop_with_barrier_in_barrier_free_outer_loop.ll: every thread reads element i, which
; thread 0 writes in the same iteration with no barrier between the read and the write.
; ERROR: data race (write-after-read)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i32 %m, i32 %n, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %leader = icmp eq i32 %t, 0
  call void @llvm.nvvm.barrier0()
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %more.j = icmp slt i32 %j, %m
  br i1 %more.j, label %inner, label %end
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %latch ]
  %more.i = icmp slt i32 %i, %n
  br i1 %more.i, label %body, label %outer.latch
body:
  %back = sub i32 %i, 0
  %inside = icmp ult i32 %back, 1024
  br i1 %inside, label %read, label %read.end
read:
  %b64 = sext i32 %back to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %b64
  %old = load i32, ptr addrspace(1) %q, align 4
  br label %read.end
read.end:
  %v = phi i32 [ 0, %body ], [ %old, %read ]
  br i1 %leader, label %write, label %latch
write:
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i64
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %latch
latch:
  call void @llvm.nvvm.barrier0()
  %i.next = add i32 %i, 1
  br label %inner
outer.latch:
  %j.next = add i32 %j, 1
  br label %outer
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
