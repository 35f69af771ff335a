; The interleaved tree reduction with the barrier before the step of stride 4 removed: thread 0
; reads s[4] while thread 4 still writes its sum of step 2 into it. Expected: a read-after-write
; race between threads 4 and 0.
; ERROR: data race (read-after-write) on `s` in `k`: thread 4 writes byte 16
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [512 x i32] undef, align 4

define void @k(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %g, align 4
  %p = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %i
  store i32 %v, ptr addrspace(3) %p, align 4
  call void @llvm.nvvm.barrier0()
  %m0 = and i32 %t, 1
  %c0 = icmp eq i32 %m0, 0
  br i1 %c0, label %step0, label %join0
step0:
  %o0 = add nuw nsw i64 %i, 1
  %q0 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o0
  %a0 = load i32, ptr addrspace(3) %p, align 4
  %b0 = load i32, ptr addrspace(3) %q0, align 4
  %s0 = add i32 %a0, %b0
  store i32 %s0, ptr addrspace(3) %p, align 4
  br label %join0
join0:
  call void @llvm.nvvm.barrier0()
  %m1 = and i32 %t, 3
  %c1 = icmp eq i32 %m1, 0
  br i1 %c1, label %step1, label %join1
step1:
  %o1 = add nuw nsw i64 %i, 2
  %q1 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o1
  %a1 = load i32, ptr addrspace(3) %p, align 4
  %b1 = load i32, ptr addrspace(3) %q1, align 4
  %s1 = add i32 %a1, %b1
  store i32 %s1, ptr addrspace(3) %p, align 4
  br label %join1
join1:
  %m2 = and i32 %t, 7
  %c2 = icmp eq i32 %m2, 0
  br i1 %c2, label %step2, label %join2
step2:
  %o2 = add nuw nsw i64 %i, 4
  %q2 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o2
  %a2 = load i32, ptr addrspace(3) %p, align 4
  %b2 = load i32, ptr addrspace(3) %q2, align 4
  %s2 = add i32 %a2, %b2
  store i32 %s2, ptr addrspace(3) %p, align 4
  br label %join2
join2:
  call void @llvm.nvvm.barrier0()
  %m3 = and i32 %t, 15
  %c3 = icmp eq i32 %m3, 0
  br i1 %c3, label %step3, label %join3
step3:
  %o3 = add nuw nsw i64 %i, 8
  %q3 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o3
  %a3 = load i32, ptr addrspace(3) %p, align 4
  %b3 = load i32, ptr addrspace(3) %q3, align 4
  %s3 = add i32 %a3, %b3
  store i32 %s3, ptr addrspace(3) %p, align 4
  br label %join3
join3:
  call void @llvm.nvvm.barrier0()
  %m4 = and i32 %t, 31
  %c4 = icmp eq i32 %m4, 0
  br i1 %c4, label %step4, label %join4
step4:
  %o4 = add nuw nsw i64 %i, 16
  %q4 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o4
  %a4 = load i32, ptr addrspace(3) %p, align 4
  %b4 = load i32, ptr addrspace(3) %q4, align 4
  %s4 = add i32 %a4, %b4
  store i32 %s4, ptr addrspace(3) %p, align 4
  br label %join4
join4:
  call void @llvm.nvvm.barrier0()
  %m5 = and i32 %t, 63
  %c5 = icmp eq i32 %m5, 0
  br i1 %c5, label %step5, label %join5
step5:
  %o5 = add nuw nsw i64 %i, 32
  %q5 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o5
  %a5 = load i32, ptr addrspace(3) %p, align 4
  %b5 = load i32, ptr addrspace(3) %q5, align 4
  %s5 = add i32 %a5, %b5
  store i32 %s5, ptr addrspace(3) %p, align 4
  br label %join5
join5:
  call void @llvm.nvvm.barrier0()
  %m6 = and i32 %t, 127
  %c6 = icmp eq i32 %m6, 0
  br i1 %c6, label %step6, label %join6
step6:
  %o6 = add nuw nsw i64 %i, 64
  %q6 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o6
  %a6 = load i32, ptr addrspace(3) %p, align 4
  %b6 = load i32, ptr addrspace(3) %q6, align 4
  %s6 = add i32 %a6, %b6
  store i32 %s6, ptr addrspace(3) %p, align 4
  br label %join6
join6:
  call void @llvm.nvvm.barrier0()
  %m7 = and i32 %t, 255
  %c7 = icmp eq i32 %m7, 0
  br i1 %c7, label %step7, label %join7
step7:
  %o7 = add nuw nsw i64 %i, 128
  %q7 = getelementptr inbounds i32, ptr addrspace(3) @s, i64 %o7
  %a7 = load i32, ptr addrspace(3) %p, align 4
  %b7 = load i32, ptr addrspace(3) %q7, align 4
  %s7 = add i32 %a7, %b7
  store i32 %s7, ptr addrspace(3) %p, align 4
  br label %join7
join7:
  call void @llvm.nvvm.barrier0()
  %r = load i32, ptr addrspace(3) @s, align 4
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %done
write:
  %out.slot1 = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %t
  store i32 %r, ptr addrspace(1) %out.slot1, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}
