; Races between blocks on global memory: no barrier orders two blocks, so these need two
; threads of different blocks. @slot0: thread 0 of every block stores its block id in p[0]
; (blocks 0 and 1 race; a value every block computes alike, a parameter say, would be tolerated
; between blocks). @neighbour: each thread adds p[256·(b + 1) + tid], the element the next block's same
; thread writes. @counter: a plain read-modify-write of a global counter by thread 0 of every
; block (a histogram update without atomics loses counts this way).
; ERROR: data race (write-after-write between blocks) on `%p` in `slot0`: thread 0 of block 0 writes byte 0
; ERROR: data race (write-after-read between blocks) on `%p` in `neighbour`
; ERROR: data race (write-after-read between blocks) on `%c` in `counter`
; ERROR: data race (write-after-write between blocks) on `%c` in `counter`
; OPTIONS: block-size=256
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @slot0(ptr addrspace(1) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %exit
store:
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define void @neighbour(ptr addrspace(1) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bn = mul i32 %b, %n
  %own = add i32 %bn, %t
  %next = add i32 %own, %n
  %pn = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %next
  %x = load i32, ptr addrspace(1) %pn, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %p, i32 %own
  %y = load i32, ptr addrspace(1) %po, align 4
  %s = add i32 %x, %y
  store i32 %s, ptr addrspace(1) %po, align 4
  ret void
}

define void @counter(ptr addrspace(1) %c) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %count, label %exit
count:
  %old = load i32, ptr addrspace(1) %c, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr addrspace(1) %c, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @slot0, !"kernel", i32 1}
!1 = !{ptr @neighbour, !"kernel", i32 1}
!2 = !{ptr @counter, !"kernel", i32 1}
