; The compare-exchange of an odd-even sort without its barrier, on contents the kernel itself
; sets to 0 (`s[t] = 0`, not the input): `a > b` never holds, no exchange writes, and only reads
; meet between the barriers. The pair test cannot tell (E0852); running the block
; (races/simulate.rs) finds no write another thread touches, on any input: no error. Source:
;   s[t] = 0; __syncthreads();
;   for (p = 0; p < 128; p++)
;     if ((t & 1) == (p & 1) && t + 1 < 128) { a = s[t]; b = s[t + 1];
;       if (a > b) { s[t] = b; s[t + 1] = a; } }
;   __syncthreads(); out[blockIdx.x * 128 + t] = s[t];
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=128
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ11never_swapsPiE1s = internal unnamed_addr addrspace(3) global [128 x i32] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z11never_swapsPi(ptr nocapture noundef writeonly %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = zext nneg i32 %2 to i64
  %4 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ11never_swapsPiE1s to ptr), i64 0, i64 %3
  store i32 0, ptr %4, align 4, !tbaa !5
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %5 = icmp ult i32 %2, 127
  %6 = add nuw nsw i32 %2, 1
  %7 = zext nneg i32 %6 to i64
  %8 = getelementptr inbounds [128 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ11never_swapsPiE1s to ptr), i64 0, i64 %7
  %9 = and i32 %2, 1
  %10 = icmp eq i32 %9, 0
  %11 = and i1 %5, %10
  %12 = and i32 %2, 1
  %13 = icmp ne i32 %12, 0
  %14 = and i1 %5, %13
  br label %22

15:                                               ; preds = %35
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %16 = load i32, ptr %4, align 4, !tbaa !5
  %17 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %18 = shl i32 %17, 7
  %19 = add i32 %18, %2
  %20 = zext i32 %19 to i64
  %21 = getelementptr inbounds i32, ptr %0, i64 %20
  store i32 %16, ptr %21, align 4, !tbaa !5
  ret void

22:                                               ; preds = %35, %1
  %23 = phi i32 [ 0, %1 ], [ %36, %35 ]
  br i1 %11, label %24, label %29

24:                                               ; preds = %22
  %25 = load i32, ptr %4, align 4, !tbaa !5
  %26 = load i32, ptr %8, align 4, !tbaa !5
  %27 = icmp sgt i32 %25, %26
  br i1 %27, label %28, label %29

28:                                               ; preds = %24
  store i32 %26, ptr %4, align 4, !tbaa !5
  store i32 %25, ptr %8, align 4, !tbaa !5
  br label %29

29:                                               ; preds = %24, %28, %22
  br i1 %14, label %30, label %35

30:                                               ; preds = %29
  %31 = load i32, ptr %4, align 4, !tbaa !5
  %32 = load i32, ptr %8, align 4, !tbaa !5
  %33 = icmp sgt i32 %31, %32
  br i1 %33, label %34, label %35

34:                                               ; preds = %30
  store i32 %32, ptr %4, align 4, !tbaa !5
  store i32 %31, ptr %8, align 4, !tbaa !5
  br label %35

35:                                               ; preds = %34, %30, %29
  %36 = add nuw nsw i32 %23, 2
  %37 = icmp eq i32 %36, 128
  br i1 %37, label %15, label %22, !llvm.loop !9
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

!0 = !{ptr @_Z11never_swapsPi, !"kernel", i32 1}
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
