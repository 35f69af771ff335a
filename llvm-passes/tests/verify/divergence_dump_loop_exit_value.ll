; The divergence analysis, printed: in a loop whose exit depends on the thread id, the counter is
; the same for every thread still in the loop (uniform, as LLVM's own analysis says too), but its
; value after the loop depends on the thread ("temporal divergence"): the use `%r` is divergent. And
; `tid >> 5` is the same within each warp. No barrier, no shared memory: no finding.
; CHECK: kernel @k: 256x1x1 threads
; CHECK: divergent %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: warp-uniform %w = lshr i32 %t, 5
; CHECK-NOT: %i = phi
; CHECK: divergent %r = add i32 %next, %w
; CHECK: branch divergent in %header
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = lshr i32 %t, 5
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %next, %header ]
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %t
  br i1 %more, label %header, label %end
end:
  %r = add i32 %next, %w
  %out.slot1 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %out.slot1, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
