; clang 19 -O2 output of (CUDA, 256 threads a block):
;     __global__ void reduce(float *out) {
;       __shared__ float s[256];
;       unsigned t = threadIdx.x;
;       for (unsigned d = blockDim.x / 2; d > 0; d /= 2) {
;         if (t < d) s[t] += s[t + d];
;         __syncthreads();
;       }
;       if (t == 0) out[0] = s[0];
;     }
; The correct tree reduction at -O2 (the loop kept, its stride from blockDim.x). No finding.
; Launched as one block (`single-block`): this case is about threads of one block.
; OPTIONS: block-size=256 single-block
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6reducePfE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z6reducePf(ptr nocapture noundef writeonly %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %4 = icmp ult i32 %3, 2
  br i1 %4, label %8, label %5

5:                                                ; preds = %1
  %6 = zext nneg i32 %2 to i64
  %7 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %6
  br label %10

8:                                                ; preds = %21, %1
  %9 = icmp eq i32 %2, 0
  br i1 %9, label %23, label %25

10:                                               ; preds = %5, %21
  %11 = phi i32 [ %3, %5 ], [ %12, %21 ]
  %12 = lshr i32 %11, 1
  %13 = icmp ult i32 %2, %12
  br i1 %13, label %14, label %21

14:                                               ; preds = %10
  %15 = add nuw nsw i32 %12, %2
  %16 = zext nneg i32 %15 to i64
  %17 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), i64 0, i64 %16
  %18 = load float, ptr %17, align 4, !tbaa !5
  %19 = load float, ptr %7, align 4, !tbaa !5
  %20 = fadd contract float %18, %19
  store float %20, ptr %7, align 4, !tbaa !5
  br label %21

21:                                               ; preds = %14, %10
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %22 = icmp ult i32 %11, 4
  br i1 %22, label %8, label %10, !llvm.loop !9

23:                                               ; preds = %8
  %24 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reducePfE1s to ptr), align 4, !tbaa !5
  store float %24, ptr %0, align 4, !tbaa !5
  br label %25

25:                                               ; preds = %23, %8
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z6reducePf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"float", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
