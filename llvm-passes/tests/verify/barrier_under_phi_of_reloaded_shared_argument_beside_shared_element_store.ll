; Bug twin of barrier_under_phi_of_reloaded_value_beside_shared_element_store.ll: x is a
; shared-memory pointer argument, so the divergence analysis does not take the two loads through
; it for one value (another thread's store may come between them) and the barrier may be reached
; by some threads only. For the race check, a kernel's shared pointer parameter (OpenCL's
; `__local` argument) is a buffer of its own, apart from @s: the reads of x race with nothing.
; ERROR: divergent barrier in `k`
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [128 x float] undef, align 4

define void @k(ptr addrspace(3) noalias %x, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %lead, label %rest
lead:
  %pl = getelementptr inbounds float, ptr addrspace(3) %x, i32 %b
  %vl = load float, ptr addrspace(3) %pl, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %b
  store float %vl, ptr addrspace(1) %o, align 4
  br label %join
rest:
  %pr = getelementptr inbounds float, ptr addrspace(3) %x, i32 %b
  %vr = load float, ptr addrspace(3) %pr, align 4
  br label %join
join:
  %v = phi float [ %vl, %lead ], [ %vr, %rest ]
  %slot = getelementptr inbounds float, ptr addrspace(3) @s, i32 %t
  store float 1.0, ptr addrspace(3) %slot, align 4
  %c = fcmp ogt float %v, 0.0
  br i1 %c, label %then, label %end
then:
  call void @llvm.nvvm.barrier0()
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
