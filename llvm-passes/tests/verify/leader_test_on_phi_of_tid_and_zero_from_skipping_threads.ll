; Bug twin of leader_test_on_phi_of_tid_and_one_from_skipping_threads.ll: the threads that skip
; the loop bring a `0`, so `if (p == 0 and b < n) out[7] = v` runs in thread 0 and in threads
; 100..127.
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, float %v, i32 %n, ptr addrspace(1) %out) {
entry:
  br i1 %c, label %other, label %loop
other:
  %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %join
loop:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %few = icmp ult i32 %t, 100
  br i1 %few, label %ran, label %skip
ran:
  %pt = getelementptr inbounds float, ptr addrspace(1) %out, i32 %t
  store float %v, ptr addrspace(1) %pt, align 4
  br label %join
skip:
  br label %join
join:
  %p = phi i32 [ %t1, %other ], [ %t, %ran ], [ 0, %skip ]
  call void @llvm.nvvm.barrier0()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %inside = icmp uge i32 %b, %n
  %others = icmp ne i32 %p, 0
  %skipwrite = or i1 %others, %inside
  br i1 %skipwrite, label %end, label %write
write:
  %p7 = getelementptr inbounds float, ptr addrspace(1) %out, i32 7
  store float %v, ptr addrspace(1) %p7, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
