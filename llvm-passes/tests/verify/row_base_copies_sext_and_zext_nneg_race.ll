; loomc -O3 output, reduced, of a kernel whose reduction gives a row to a `func`:
;   ca[[B, range(0, cols)]] <- ca[[B, range(0, cols)]] * 2
;   s[[B]] <- sum /. (pack(ca[[B]], cb[[B]]) /~ range(0, cols))   -- pack reads a[[j + 1]]
; with the barrier before `ca[[B]]` removed. GVN's partial redundancy elimination computes the
; row base `cols * B` on the path that skips the write loop as `sext(cols) * B` and merges it
; with the write loop's `zext nneg(cols) * B` in %base.merged. A `zext nneg` is its operand's
; sign extension wherever it is defined, so the two copies are one kernel-invariant value and
; the read's row is the written row: thread 0 writes element 256 of it (its second trip) while
; thread 255 reads it, a race. (Read as two values, the phi was only a warning, E0852, and the
; race on loomc's own output went unreported: the block is not run there.)
; ERROR: data race (read-after-write) on `%ca` in `rowThenNext`: thread 0 writes byte 1024
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @rowThenNext(i32 %cols, ptr addrspace(1) %ca, ptr addrspace(1) noalias %s) {
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
  %i.wide = zext nneg i32 %i to i64
  %elem.w = getelementptr i32, ptr addrspace(1) %row.written, i64 %i.wide
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
  %k = add nuw nsw i32 %j, 1
  %k.wide = zext nneg i32 %k to i64
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
!0 = !{ptr @rowThenNext, !"kernel", i32 1}
!1 = !{ptr @rowThenNext, !"reqntidx", i32 256}
