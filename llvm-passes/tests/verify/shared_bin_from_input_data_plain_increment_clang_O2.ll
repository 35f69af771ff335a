; clang 19 -O2 output of bench/verifier/corpus/histogram256_plain_increment.cu: the shared
; histogram updated with a plain `h[data[i] & 255]++` in a grid-stride loop instead of an atomic.
; The bin is loaded data, so the address is not affine; but `data` is only read by the kernel,
; its contents are an input as free as a parameter, and with every element 0 (a valid input)
; threads 0 and 1 both increment `h[0]` with no barrier between them: proven races (a read and
; a write, two writes), reported with that input (it was a warning only). The two accesses are also reported as undecided
; (E0852): for other inputs the analysis cannot say which bins they touch.
; ERROR: data race (write-after-read) on `_ZZ12histogram256PKjPjjE1h`
; ERROR: data race (write-after-write) on `_ZZ12histogram256PKjPjjE1h`
; WARNING: could not prove race freedom
; WARNING: could not prove race freedom
; OPTIONS: block-size=256 single-block
source_filename = "histogram256_plain_increment.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ12histogram256PKjPjjE1h = internal unnamed_addr addrspace(3) global [256 x i32] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z12histogram256PKjPjj(ptr nocapture noundef readonly %0, ptr nocapture noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ12histogram256PKjPjjE1h to ptr), i64 0, i64 %5
  store i32 0, ptr %6, align 4, !tbaa !5
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %7 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %8 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %9 = mul i32 %7, %8
  %10 = add i32 %9, %4
  %11 = icmp ult i32 %10, %2
  br i1 %11, label %12, label %15

12:                                               ; preds = %3
  %13 = tail call noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %14 = mul i32 %8, %13
  br label %19

15:                                               ; preds = %19, %3
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %16 = getelementptr inbounds i32, ptr %1, i64 %5
  %17 = load i32, ptr %6, align 4, !tbaa !5
  %18 = atomicrmw add ptr %16, i32 %17 seq_cst, align 4
  ret void

19:                                               ; preds = %12, %19
  %20 = phi i32 [ %10, %12 ], [ %29, %19 ]
  %21 = zext i32 %20 to i64
  %22 = getelementptr inbounds i32, ptr %0, i64 %21
  %23 = load i32, ptr %22, align 4, !tbaa !5
  %24 = and i32 %23, 255
  %25 = zext nneg i32 %24 to i64
  %26 = getelementptr inbounds [256 x i32], ptr addrspacecast (ptr addrspace(3) @_ZZ12histogram256PKjPjjE1h to ptr), i64 0, i64 %25
  %27 = load i32, ptr %26, align 4, !tbaa !5
  %28 = add i32 %27, 1
  store i32 %28, ptr %26, align 4, !tbaa !5
  %29 = add i32 %20, %14
  %30 = icmp ult i32 %29, %2
  br i1 %30, label %19, label %15, !llvm.loop !9
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #2

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+ptx70,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z12histogram256PKjPjj, !"kernel", i32 1}
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
