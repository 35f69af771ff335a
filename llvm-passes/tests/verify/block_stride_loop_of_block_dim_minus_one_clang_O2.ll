; Bug twin of block_stride_loop_of_block_dim_clang_O2.ll: the stride is `blockDim.x - 1`, 63
; with 64 threads, so thread 63's first element is thread 0's second (k1). k2 keeps the right
; stride. One race.
; ERROR: data race (write-after-write) on `_ZZ2k1PfiE1s` in `_Z2k1Pfi`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: block-size=64 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ2k1PfiE1s = internal unnamed_addr addrspace(3) global [4096 x float] undef, align 4
@_ZZ2k2PfiE1s = internal unnamed_addr addrspace(3) global [4096 x float] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z2k1Pfi(ptr nocapture noundef writeonly %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %5 = add nsw i32 %4, -1
  br label %11

6:                                                ; preds = %11
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %7 = zext nneg i32 %3 to i64
  %8 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k1PfiE1s to ptr), i64 0, i64 %7
  %9 = load float, ptr %8, align 4, !tbaa !6
  %10 = getelementptr inbounds float, ptr %0, i64 %7
  store float %9, ptr %10, align 4, !tbaa !6
  ret void

11:                                               ; preds = %2, %11
  %12 = phi i32 [ %3, %2 ], [ %15, %11 ]
  %13 = zext nneg i32 %12 to i64
  %14 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k1PfiE1s to ptr), i64 0, i64 %13
  store float 1.000000e+00, ptr %14, align 4, !tbaa !6
  %15 = add nsw i32 %5, %12
  %16 = icmp ult i32 %15, 4096
  br i1 %16, label %11, label %6, !llvm.loop !10
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z2k2Pfi(ptr nocapture noundef writeonly %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %5 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %6 = mul nuw nsw i32 %4, %5
  br label %12

7:                                                ; preds = %12
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %8 = zext nneg i32 %3 to i64
  %9 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PfiE1s to ptr), i64 0, i64 %8
  %10 = load float, ptr %9, align 4, !tbaa !6
  %11 = getelementptr inbounds float, ptr %0, i64 %8
  store float %10, ptr %11, align 4, !tbaa !6
  ret void

12:                                               ; preds = %2, %12
  %13 = phi i32 [ %3, %2 ], [ %16, %12 ]
  %14 = zext nneg i32 %13 to i64
  %15 = getelementptr inbounds [4096 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ2k2PfiE1s to ptr), i64 0, i64 %14
  store float 1.000000e+00, ptr %15, align 4, !tbaa !6
  %16 = add nuw nsw i32 %13, %6
  %17 = icmp ult i32 %16, 4096
  br i1 %17, label %12, label %7, !llvm.loop !12
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #2

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3, !4}
!llvm.ident = !{!5}

!0 = !{ptr @_Z2k1Pfi, !"kernel", i32 1}
!1 = !{ptr @_Z2k2Pfi, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"float", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.mustprogress"}
!12 = distinct !{!12, !11}
