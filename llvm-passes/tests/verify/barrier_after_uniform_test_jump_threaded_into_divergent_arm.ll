; Benign: the shape LLVM's jump threading gives loomc's -O3 output of the fuzz slice's seed 1349
; (block size 64): a divergent `if (tid < 33)` scatter, then a statement with a barrier that runs
; only when the block's row exists (`%inside`, uniform) and a uniform load is non-zero. Jump
; threading copies the `%inside` test into the divergent arm, which goes straight to the end when
; it is false, while the other threads test it at the join. The barrier lies between the
; divergent branch and its post-dominator, but on every way from that branch the uniform tests
; alone decide whether it is reached: all threads reach it, once, or none do (it was E0850). No
; finding.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %y, ptr addrspace(1) noalias %out) {
entry:
  %nb = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %inside = icmp ult i32 %b, %nb
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %valid = icmp ult i32 %t, 33
  br i1 %valid, label %arm, label %after
arm:
  br i1 %inside, label %store, label %end
store:
  %small = icmp ult i32 %t, 11
  br i1 %small, label %inner, label %stored
inner:
  br label %stored
stored:
  %v = phi i32 [ 1, %inner ], [ 2, %store ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %after
after:
  br i1 %inside, label %load, label %end
load:
  %q = getelementptr inbounds i32, ptr addrspace(1) %y, i32 %b
  %loaded = load i32, ptr addrspace(1) %q, align 4
  %zero = icmp eq i32 %loaded, 0
  br i1 %zero, label %end, label %sync
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
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
