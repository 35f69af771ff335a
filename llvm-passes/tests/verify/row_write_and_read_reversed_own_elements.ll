; The kernel of row_read_reversed_race.ll with the write reversed too: thread k mod 256 writes
; and reads element `cols - 1 - k` (`cols + (k ^ -1)`), its own, so no barrier is needed and
; the pair is proven free (it was a warning, E0852: `k ^ -1` read as a value that changes
; between iterations).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @rowReversedOwn(i32 %cols, ptr addrspace(1) %ca, ptr addrspace(1) noalias %s) {
entry:
  %b = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %idx = zext nneg i32 %b to i64
  %t = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %more = icmp slt i32 %t, %cols
  br i1 %more, label %write.preheader, label %skip

skip:
  %cols.sext = sext i32 %cols to i64
  %base.copy = mul nsw i64 %cols.sext, %idx
  br label %row

write.preheader:
  %cols.zext = zext nneg i32 %cols to i64
  %base = mul nuw nsw i64 %cols.zext, %idx
  %row.written = getelementptr i32, ptr addrspace(1) %ca, i64 %base
  br label %write

write:
  %i = phi i32 [ %t, %write.preheader ], [ %i.next, %write ]
  %not.i = xor i32 %i, -1
  %w = add i32 %cols, %not.i
  %w.wide = sext i32 %w to i64
  %elem.w = getelementptr i32, ptr addrspace(1) %row.written, i64 %w.wide
  %old = load i32, ptr addrspace(1) %elem.w, align 4
  %twice = shl i32 %old, 1
  store i32 %twice, ptr addrspace(1) %elem.w, align 4
  %i.next = add nuw i32 %i, 256
  %i.more = icmp slt i32 %i.next, %cols
  br i1 %i.more, label %write, label %row

row:
  %base.merged = phi i64 [ %base.copy, %skip ], [ %base, %write ]
  %row.read = getelementptr i32, ptr addrspace(1) %ca, i64 %base.merged
  br i1 %more, label %read, label %done

read:
  %j = phi i32 [ %t, %row ], [ %j.next, %read ]
  %acc = phi i32 [ 0, %row ], [ %acc.next, %read ]
  %not.j = xor i32 %j, -1
  %k = add i32 %cols, %not.j
  %k.wide = sext i32 %k to i64
  %elem.r = getelementptr i32, ptr addrspace(1) %row.read, i64 %k.wide
  %x = load i32, ptr addrspace(1) %elem.r, align 4
  %acc.next = add i32 %acc, %x
  %j.next = add nuw i32 %j, 256
  %j.more = icmp slt i32 %j.next, %cols
  br i1 %j.more, label %read, label %done

done:
  %sum = phi i32 [ 0, %row ], [ %acc.next, %read ]
  %sum.at = getelementptr i32, ptr addrspace(1) %s, i64 %idx
  %leader = icmp eq i32 %t, 0
  br i1 %leader, label %publish, label %exit

publish:
  store i32 %sum, ptr addrspace(1) %sum.at, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @rowReversedOwn, !"kernel", i32 1}
!1 = !{ptr @rowReversedOwn, !"reqntidx", i32 256}
