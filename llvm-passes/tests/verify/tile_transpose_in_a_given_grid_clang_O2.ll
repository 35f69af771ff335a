; clang 19 -O2 output of bench/verifier/corpus/transpose_ok.cu (32x32 tiles through a padded
; shared tile, 32x8 threads, a 4096x4096 matrix): race-free within and between blocks in its
; grid of 128x128 blocks. The grid size matters between blocks: with any block id the hardware
; allows, block (0, 4096) would write past the end of a row into another block's elements (the
; index `(32·bx + ty + j)·4096 + 32·by + tx` does not know the row's width bounds `32·by + tx`).
; No finding.
; OPTIONS: block-size=32,8 grid-size=128,128
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ9transposePKfPfE4tile = internal unnamed_addr addrspace(3) global [32 x [33 x float]] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z9transposePKfPf(ptr nocapture noundef readonly %0, ptr nocapture noundef writeonly %1) local_unnamed_addr #0 {
  %3 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = shl i32 %3, 5
  %5 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = add i32 %4, %5
  %7 = tail call noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %8 = shl nuw nsw i32 %7, 5
  %9 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %10 = add nuw nsw i32 %8, %9
  %11 = zext nneg i32 %5 to i64
  %12 = shl i32 %10, 12
  %13 = add i32 %6, %12
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds float, ptr %0, i64 %14
  %16 = load float, ptr %15, align 4, !tbaa !5
  %17 = zext nneg i32 %9 to i64
  %18 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %17, i64 %11
  store float %16, ptr %18, align 4, !tbaa !5
  %19 = shl i32 %10, 12
  %20 = add i32 %19, 32768
  %21 = add i32 %6, %20
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds float, ptr %0, i64 %22
  %24 = load float, ptr %23, align 4, !tbaa !5
  %25 = add nuw nsw i32 %9, 8
  %26 = zext nneg i32 %25 to i64
  %27 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %26, i64 %11
  store float %24, ptr %27, align 4, !tbaa !5
  %28 = shl i32 %10, 12
  %29 = add i32 %28, 65536
  %30 = add i32 %6, %29
  %31 = zext i32 %30 to i64
  %32 = getelementptr inbounds float, ptr %0, i64 %31
  %33 = load float, ptr %32, align 4, !tbaa !5
  %34 = add nuw nsw i32 %9, 16
  %35 = zext nneg i32 %34 to i64
  %36 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %35, i64 %11
  store float %33, ptr %36, align 4, !tbaa !5
  %37 = shl i32 %10, 12
  %38 = add i32 %37, 98304
  %39 = add i32 %6, %38
  %40 = zext i32 %39 to i64
  %41 = getelementptr inbounds float, ptr %0, i64 %40
  %42 = load float, ptr %41, align 4, !tbaa !5
  %43 = add nuw nsw i32 %9, 24
  %44 = zext nneg i32 %43 to i64
  %45 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %44, i64 %11
  store float %42, ptr %45, align 4, !tbaa !5
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %46 = add nuw nsw i32 %8, %5
  %47 = add i32 %4, %9
  %48 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %11, i64 %17
  %49 = load float, ptr %48, align 4, !tbaa !5
  %50 = shl i32 %47, 12
  %51 = add i32 %46, %50
  %52 = zext i32 %51 to i64
  %53 = getelementptr inbounds float, ptr %1, i64 %52
  store float %49, ptr %53, align 4, !tbaa !5
  %54 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %11, i64 %26
  %55 = load float, ptr %54, align 4, !tbaa !5
  %56 = shl i32 %47, 12
  %57 = add i32 %56, 32768
  %58 = add i32 %46, %57
  %59 = zext i32 %58 to i64
  %60 = getelementptr inbounds float, ptr %1, i64 %59
  store float %55, ptr %60, align 4, !tbaa !5
  %61 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %11, i64 %35
  %62 = load float, ptr %61, align 4, !tbaa !5
  %63 = shl i32 %47, 12
  %64 = add i32 %63, 65536
  %65 = add i32 %46, %64
  %66 = zext i32 %65 to i64
  %67 = getelementptr inbounds float, ptr %1, i64 %66
  store float %62, ptr %67, align 4, !tbaa !5
  %68 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposePKfPfE4tile to ptr), i64 0, i64 %11, i64 %44
  %69 = load float, ptr %68, align 4, !tbaa !5
  %70 = shl i32 %47, 12
  %71 = add i32 %70, 98304
  %72 = add i32 %46, %71
  %73 = zext i32 %72 to i64
  %74 = getelementptr inbounds float, ptr %1, i64 %73
  store float %69, ptr %74, align 4, !tbaa !5
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y() #2

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z9transposePKfPf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"float", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
