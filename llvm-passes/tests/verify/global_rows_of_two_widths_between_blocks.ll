; Thread 0 of every block stores into its block's row of %rows twice, once with rows of 64
; elements (`rows[64·b]`) and once with rows of 32 (`rows[32·b]`): each store alone stays in a
; window of its own block, but the two windows have different widths, so block 1's first store
; and block 2's second both touch `rows[64]`. Windows of different widths are not set aside
; before the pair test, which finds the race.
; ERROR: data race (write-after-write between blocks) on `%rows` in `k`
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %rows) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %exit
store:
  %wide = mul i32 %b, 64
  %p = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %wide
  store i32 1, ptr addrspace(1) %p, align 4
  %narrow = mul i32 %b, 32
  %q = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %narrow
  store i32 2, ptr addrspace(1) %q, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
