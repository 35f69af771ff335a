; Bug twin of leader_test_on_phi_with_zero_from_an_or_test.ll: the `else` arm tests
; `(tid & ctaid) == 0`, which holds in many threads (all of them in block 0), so they bring a `0`
; and store `out[7]` and `acc[b]` too.
; ERROR: data race (write-after-write)
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, float %v, ptr addrspace(1) %out, ptr addrspace(1) %acc) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  br i1 %c, label %then, label %else
then:
  %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first1 = icmp eq i32 %t1, 0
  br i1 %first1, label %lead1, label %join
lead1:
  %p22 = getelementptr inbounds float, ptr addrspace(1) %out, i32 22
  store float %v, ptr addrspace(1) %p22, align 4
  br label %join
else:
  %t2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %both = and i32 %t2, %b
  %first2 = icmp eq i32 %both, 0
  br i1 %first2, label %lead2, label %join
lead2:
  %p7 = getelementptr inbounds float, ptr addrspace(1) %out, i32 7
  store float %v, ptr addrspace(1) %p7, align 4
  br label %join
join:
  %p = phi i32 [ %t1, %then ], [ 0, %lead1 ], [ %t2, %else ], [ 0, %lead2 ]
  %leader = icmp eq i32 %p, 0
  br i1 %leader, label %last, label %end
last:
  %pa = getelementptr inbounds float, ptr addrspace(1) %acc, i32 %b
  store float %v, ptr addrspace(1) %pa, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 32}
