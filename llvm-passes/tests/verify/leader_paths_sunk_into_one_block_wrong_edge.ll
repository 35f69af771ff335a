; Bug twin of leader_paths_sunk_into_one_block.ll: arm `b` reaches the sunk block where
; `tid != 0`, so the threads other than 0 write out[0] there, and take the phi as 0 and write
; acc[0].
; ERROR: data race (write-after-write)
; ERROR: data race (write-after-write)
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c, i32 %v, ptr addrspace(1) %out, ptr addrspace(1) %acc) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br i1 %c, label %a, label %b
a:
  %la = icmp eq i32 %t, 0
  br i1 %la, label %sink, label %join
b:
  %lb = icmp eq i32 %t, 0
  br i1 %lb, label %join, label %sink
sink:
  store i32 %v, ptr addrspace(1) %out, align 4
  br label %join
join:
  %p = phi i32 [ %t, %a ], [ %t, %b ], [ 0, %sink ]
  %first = icmp eq i32 %p, 0
  br i1 %first, label %write, label %end
write:
  store i32 %v, ptr addrspace(1) %acc, align 4
  br label %end
end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 128}
