; Benign: both arms of a uniform branch test `tid != 0 or inside` (inside: a uniform test of the
; block id), and GVN merged the outcomes into a phi of constants for the store after the join:
; `skip = phi [true, arm], [false, arm's leader path], ...`. A thread reaches a `false` edge only
; through `tid != 0` false, so `if (!skip) out[21] = v` is a store by thread 0 alone (seed
; 5389622877791878277 of the one-hour campaign). No finding.
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %n, i64 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %inside = icmp uge i32 %b, %n
  br i1 %c, label %left, label %right
left:
  %others1 = icmp ne i32 %t, 0
  %skip1 = or i1 %others1, %inside
  br i1 %skip1, label %join, label %lead1
lead1:
  %p3 = getelementptr inbounds i64, ptr addrspace(1) %out, i32 3
  store i64 %v, ptr addrspace(1) %p3, align 8
  br label %join
right:
  %others2 = icmp ne i32 %t, 0
  %skip2 = or i1 %others2, %inside
  br i1 %skip2, label %join, label %lead2
lead2:
  br label %join
join:
  %skip = phi i1 [ true, %left ], [ false, %lead1 ], [ true, %right ], [ false, %lead2 ]
  br i1 %skip, label %end, label %last
last:
  %p21 = getelementptr inbounds i64, ptr addrspace(1) %out, i32 21
  store i64 %v, ptr addrspace(1) %p21, align 8
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
