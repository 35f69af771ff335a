; bench/verifier/corpus/odd_even_sort_missing_barrier.cu, clang 19 -O2: the odd-even
; transposition sort without the barrier between its phases. Every write is a compare-exchange
; under `a > b` on two values loaded from shared memory, so the pair test leaves the pairs
; undecided (E0852). Running block 0 on a descending input (races/simulate.rs) shows the race:
; thread 1 exchanges s[1] and s[2] in phase 1 while thread 0 reads s[1] in phase 0.
; ERROR: data race (read-after-write) on `_ZZ8odd_evenPiE1s`
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=128
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ8odd_evenPiE1s = internal unnamed_addr addrspace(3) global [128 x i32] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z8odd_evenPi(ptr nocapture noundef %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = shl i32 %3, 7
  %5 = add i32 %4, %2
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds i32, ptr %0, i64 %6
  %8 = load i32, ptr %7, align 4, !tbaa !5
  %9 = zext nneg i32 %2 to i64
  %10 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %9
  store i32 %8, ptr %10, align 4, !tbaa !5
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %11 = icmp ult i32 %2, 127
  %12 = add nuw nsw i32 %2, 1
  %13 = zext nneg i32 %12 to i64
  %14 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ8odd_evenPiE1s to ptr), i64 0, i64 %13
  %15 = and i32 %2, 1
  %16 = icmp eq i32 %15, 0
  %17 = and i1 %11, %16
  %18 = and i32 %2, 1
  %19 = icmp ne i32 %18, 0
  %20 = and i1 %11, %19
  br label %23

21:                                               ; preds = %36
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %22 = load i32, ptr %10, align 4, !tbaa !5
  store i32 %22, ptr %7, align 4, !tbaa !5
  ret void

23:                                               ; preds = %36, %1
  %24 = phi i32 [ 0, %1 ], [ %37, %36 ]
  br i1 %17, label %25, label %30

25:                                               ; preds = %23
  %26 = load i32, ptr %10, align 4, !tbaa !5
  %27 = load i32, ptr %14, align 4, !tbaa !5
  %28 = icmp sgt i32 %26, %27
  br i1 %28, label %29, label %30

29:                                               ; preds = %25
  store i32 %27, ptr %10, align 4, !tbaa !5
  store i32 %26, ptr %14, align 4, !tbaa !5
  br label %30

30:                                               ; preds = %25, %29, %23
  br i1 %20, label %31, label %36

31:                                               ; preds = %30
  %32 = load i32, ptr %10, align 4, !tbaa !5
  %33 = load i32, ptr %14, align 4, !tbaa !5
  %34 = icmp sgt i32 %32, %33
  br i1 %34, label %35, label %36

35:                                               ; preds = %31
  store i32 %33, ptr %10, align 4, !tbaa !5
  store i32 %32, ptr %14, align 4, !tbaa !5
  br label %36

36:                                               ; preds = %35, %31, %30
  %37 = add nuw nsw i32 %24, 2
  %38 = icmp eq i32 %37, 128
  br i1 %38, label %21, label %23, !llvm.loop !9
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z8odd_evenPi, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
