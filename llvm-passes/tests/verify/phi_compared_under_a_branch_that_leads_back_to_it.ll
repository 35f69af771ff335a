; Benign: a loop whose header compares a phi of `tid` and `1` with 0, and whose back edge is taken
; under a branch on `tid != 0`: deciding the comparison edge by edge asks, for the back edge, about
; the branch above it, which leads back to the comparison itself (the verifier once recursed
; until the stack overflowed). Every thread but 0 may loop and store x[0] into out[1]. The
; global store's index, a phi of `tid` and 1 in a barrier-free loop, is not affine: a warning
; naming the store (accesses to global memory the analysis cannot express are never silent).
; WARNING: `store i32 %v, ptr addrspace(1) %gp, align 4`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x i32] undef, align 4

define void @k(ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %h
h:
  %p = phi i32 [ %t, %entry ], [ 1, %l ]
  %c = icmp ne i32 %p, 0
  br i1 %c, label %b, label %exit
b:
  %v = load i32, ptr addrspace(1) %x, align 4
  %gp = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %p
  store i32 %v, ptr addrspace(1) %gp, align 4
  %xv = icmp sgt i32 %v, 0
  %nz = icmp ne i32 %t, 0
  %go = and i1 %nz, %xv
  br i1 %go, label %l, label %exit
l:
  br label %h
exit:
  %o = getelementptr inbounds [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 1, ptr addrspace(3) %o, align 4
  call void @llvm.nvvm.barrier0()
  %r = load i32, ptr addrspace(3) @s, align 4
  %g = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %g, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
