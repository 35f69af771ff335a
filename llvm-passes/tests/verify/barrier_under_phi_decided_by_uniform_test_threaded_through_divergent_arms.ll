; Benign: the shape SimplifyCFG gives a uniform test (`%inside`, the block's row exists) repeated
; after a divergent `if` (fuzz seed 38038114364 of issue 16, loomc -O3, block size 128): it
; threads the test through the arm, which goes straight to %join when %inside is false, as the
; block after the `if` does; the phi at %join merges 0 from both of those edges and a load of a
; uniform address from the edge where %inside holds. Which value a thread gets depends on
; %inside alone, the same for every thread, so the phi is uniform and the barrier under a branch
; on it is reached by every thread or none (it was E0850). No finding.
; CHECK-NOT: divergent %v =
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %y, ptr addrspace(1) %out) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %inside = icmp ult i32 %b, %nb
  %valid = icmp ult i32 %t, 52
  br i1 %valid, label %arm, label %after
arm:
  br i1 %inside, label %store, label %join
store:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 1, ptr addrspace(1) %p, align 4
  br label %after
after:
  br i1 %inside, label %load, label %join
load:
  %q = getelementptr inbounds i32, ptr addrspace(1) %y, i32 %b
  %loaded = load i32, ptr addrspace(1) %q, align 4
  br label %join
join:
  %v = phi i32 [ 0, %after ], [ %loaded, %load ], [ 0, %arm ]
  %c = icmp sgt i32 %v, 0
  br i1 %c, label %sync, label %end
sync:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
