; A race after a branch on a constant: the canonical copy folds `%never` to `false`, and the
; branch keeps only its `false` successor. Every thread still reaches `%go`, where thread 0 reads
; s[1], which thread 1 writes, with no barrier. (Once the one successor was taken for the `true`
; edge, so that no thread reached `%go`, and the race went unseen.)
; ERROR: data race (read-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x i32] undef, align 4

define void @k(i32 %v, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %never = icmp eq i32 19, 0
  br i1 %never, label %dead, label %go
dead:
  call void @llvm.nvvm.barrier0()
  br label %go
go:
  %mine = getelementptr inbounds i32, ptr addrspace(3) @s, i32 %t
  store i32 %v, ptr addrspace(3) %mine, align 4
  %t1 = add i32 %t, 1
  %n = and i32 %t1, 63
  %next = getelementptr inbounds i32, ptr addrspace(3) @s, i32 %n
  %x = load i32, ptr addrspace(3) %next, align 4
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %x, ptr addrspace(1) %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
