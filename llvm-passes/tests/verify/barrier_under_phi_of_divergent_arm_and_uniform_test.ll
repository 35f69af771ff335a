; The twin of barrier_under_phi_decided_by_uniform_test_threaded_through_divergent_arms.ll: the
; arm's edge brings 1, not 0, when %inside is false. Threads 0 to 51 take the arm and get 1, the
; others 0: the phi differs between threads and so does the branch to the barrier. Expected: a
; divergent barrier.
; ERROR: divergent barrier
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
  %v = phi i32 [ 0, %after ], [ %loaded, %load ], [ 1, %arm ]
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
