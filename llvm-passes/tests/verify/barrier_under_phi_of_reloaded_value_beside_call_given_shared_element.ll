; Bug twin of barrier_under_phi_of_reloaded_value_beside_shared_element_store.ll: an unknown
; function is given the shared element's address instead of a store into it; it may write x
; through a pointer it finds there, so the two loads may differ and the barrier may be reached by
; some threads only.
; The call itself is also reported: an external function given a shared pointer is not analysed.
; ERROR: divergent barrier in `k`
; WARNING: the call to `w` receives a pointer to shared or global memory
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partials = internal addrspace(3) global [128 x float] undef, align 4

define void @k(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %lead, label %rest
lead:
  %pl = getelementptr inbounds float, ptr addrspace(1) %x, i32 %b
  %vl = load float, ptr addrspace(1) %pl, align 4
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i32 %b
  store float %vl, ptr addrspace(1) %o, align 4
  br label %join
rest:
  %pr = getelementptr inbounds float, ptr addrspace(1) %x, i32 %b
  %vr = load float, ptr addrspace(1) %pr, align 4
  br label %join
join:
  %v = phi float [ %vl, %lead ], [ %vr, %rest ]
  %slot = getelementptr inbounds float, ptr addrspace(3) @partials, i32 %t
  call void @w(ptr addrspace(3) %slot)
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
declare void @w(ptr addrspace(3))

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
