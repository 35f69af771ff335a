; Benign twins of global_slot_written_by_every_block.ll, no race between blocks: @own writes
; p[b·256 + tid] (each block its own 256 elements); @one_block stores p[0] only in thread 0 of
; block 0; @atomic_counter counts with an atomic add (atomics do not race with each other);
; @two_per_thread writes p[512·b + tid] and p[512·b + 256 + tid] (each block its own 512).
; @uniform_result: thread 0 of every block stores `2·n + x[0]` (x is read-only) to out[0], a
; value every block computes alike, as loomc's uniform statements do: whichever block writes
; last, out[0] holds it (tolerated between blocks, unlike within one). No finding.
; OPTIONS: block-size=256
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @own(ptr addrspace(1) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bn = mul i32 %b, %n
  %g = add i32 %bn, %t
  %pg = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %g
  %x = load i32, ptr addrspace(1) %pg, align 4
  %y = add i32 %x, 1
  store i32 %y, ptr addrspace(1) %pg, align 4
  ret void
}

define void @one_block(ptr addrspace(1) %p, i32 %v) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %either = or i32 %t, %b
  %first = icmp eq i32 %either, 0
  br i1 %first, label %store, label %exit
store:
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define void @atomic_counter(ptr addrspace(1) %c) {
entry:
  %old = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  ret void
}

define void @two_per_thread(ptr addrspace(1) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %b, 512
  %g = add i32 %base, %t
  %pg = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %g
  store i32 %t, ptr addrspace(1) %pg, align 4
  %h = add i32 %g, 256
  %ph = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %h
  store i32 %t, ptr addrspace(1) %ph, align 4
  ret void
}

define void @uniform_result(i32 %n, ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %exit
store:
  %x0 = load i32, ptr addrspace(1) %x, align 4
  %n2 = shl i32 %n, 1
  %v = add i32 %n2, %x0
  store i32 %v, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!4 = !{ptr @uniform_result, !"kernel", i32 1}
!0 = !{ptr @own, !"kernel", i32 1}
!1 = !{ptr @one_block, !"kernel", i32 1}
!2 = !{ptr @atomic_counter, !"kernel", i32 1}
!3 = !{ptr @two_per_thread, !"kernel", i32 1}
