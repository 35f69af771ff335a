; loomc -O3 output of `a[B] <- a[B] * 2.0` then `a[B] <- a[B] + 1.0` on a row of run-time
; length `cols` (tests/ui/ok/row_two_statements.loom, debug locations removed). Each loop's
; preheader computes the row base `cols * B` again (%2 and %4); neither dominates the other.
; The two copies are one kernel-invariant value, so the second loop touches the same row: each
; thread its own elements, no race. (Read as two unrelated values they once gave an "impossible"
; race between two threads of one block, E0851 on loomc's own output.)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define void @rowTwice(i32 %rows, i32 %cols, ptr addrspace(1) nocapture %a) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %idx = zext nneg i32 %0 to i64
  %1 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %more33 = icmp slt i32 %1, %cols
  br i1 %more33, label %body.lr.ph, label %endloop19

body.lr.ph:                                       ; preds = %entry
  %idx9 = zext nneg i32 %cols to i64
  %2 = mul nuw nsw i64 %idx9, %idx
  %3 = getelementptr float, ptr addrspace(1) %a, i64 %2
  br label %body

loop17.preheader:                                 ; preds = %body
  br i1 %more33, label %body18.lr.ph, label %endloop19

body18.lr.ph:                                     ; preds = %loop17.preheader
  %idx25 = zext nneg i32 %cols to i64
  %4 = mul nuw nsw i64 %idx25, %idx
  %5 = getelementptr float, ptr addrspace(1) %a, i64 %4
  br label %body18

body:                                             ; preds = %body.lr.ph, %body
  %i.034 = phi i32 [ %1, %body.lr.ph ], [ %next, %body ]
  %idx7 = sext i32 %i.034 to i64
  %elem = getelementptr float, ptr addrspace(1) %3, i64 %idx7
  %load = load float, ptr addrspace(1) %elem, align 4
  %fmul = fmul float %load, 2.000000e+00
  store float %fmul, ptr addrspace(1) %elem, align 4
  %next = add i32 %i.034, 256
  %more = icmp slt i32 %next, %cols
  br i1 %more, label %body, label %loop17.preheader

body18:                                           ; preds = %body18.lr.ph, %body18
  %i16.036 = phi i32 [ %1, %body18.lr.ph ], [ %next32, %body18 ]
  %idx23 = sext i32 %i16.036 to i64
  %elem26 = getelementptr float, ptr addrspace(1) %5, i64 %idx23
  %load27 = load float, ptr addrspace(1) %elem26, align 4
  %fadd = fadd float %load27, 1.000000e+00
  store float %fadd, ptr addrspace(1) %elem26, align 4
  %next32 = add i32 %i16.036, 256
  %more21 = icmp slt i32 %next32, %cols
  br i1 %more21, label %body18, label %endloop19

endloop19:                                        ; preds = %body18, %entry, %loop17.preheader
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }


!nvvm.annotations = !{!0, !1}
!0 = !{ptr @rowTwice, !"kernel", i32 1}
!1 = !{ptr @rowTwice, !"reqntidx", i32 256}
