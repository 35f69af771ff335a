; clang 19 -O2 output of (CUDA, 64 threads):
;     extern __shared__ float dyn_a[];
;     extern __shared__ int dyn_b[];
;     __global__ void aliased(float *out) {
;       if (threadIdx.x == 0) dyn_a[0] = 1.0f;
;       if (threadIdx.x == 1) out[blockIdx.x] = dyn_b[0];
;     }
;     __global__ void own_then_neighbour(float *out) {
;       dyn_a[threadIdx.x] = threadIdx.x;
;       __syncthreads();
;       out[blockIdx.x * blockDim.x + threadIdx.x] = dyn_a[(threadIdx.x + 1) % blockDim.x];
;     }
; Every `extern __shared__` array is CUDA's one dynamic shared buffer: dyn_a and dyn_b are the
; same bytes, so thread 1's read of dyn_b[0] races with thread 0's write of dyn_a[0].
; own_then_neighbour is race-free. Within a block only: `out[blockIdx.x]` from one thread a block.
; ERROR: data race (read-after-write) on `dyn_a` in `_Z7aliasedPf`
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn_a = external dso_local local_unnamed_addr addrspace(3) global [0 x float], align 4
@dyn_b = external dso_local local_unnamed_addr addrspace(3) global [0 x i32], align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, argmem: write, inaccessiblemem: none)
define dso_local void @_Z7aliasedPf(ptr nocapture noundef writeonly %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %2, label %10 [
    i32 0, label %3
    i32 1, label %4
  ]

3:                                                ; preds = %1
  store float 1.000000e+00, ptr addrspacecast (ptr addrspace(3) @dyn_a to ptr), align 4, !tbaa !6
  br label %10

4:                                                ; preds = %1
  %5 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = zext nneg i32 %5 to i64
  %7 = getelementptr inbounds float, ptr %0, i64 %6
  %8 = load i32, ptr addrspacecast (ptr addrspace(3) @dyn_b to ptr), align 4, !tbaa !10
  %9 = sitofp i32 %8 to float
  store float %9, ptr %7, align 4, !tbaa !6
  br label %10

10:                                               ; preds = %3, %1, %4
  ret void
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z18own_then_neighbourPf(ptr nocapture noundef writeonly %0) local_unnamed_addr #1 {
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = uitofp nneg i32 %2 to float
  %4 = zext nneg i32 %2 to i64
  %5 = getelementptr inbounds [0 x float], ptr addrspacecast (ptr addrspace(3) @dyn_a to ptr), i64 0, i64 %4
  store float %3, ptr %5, align 4, !tbaa !6
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %6 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = trunc nuw nsw i32 %2 to i16
  %8 = add nuw nsw i16 %7, 1
  %9 = trunc nuw nsw i32 %6 to i16
  %10 = urem i16 %8, %9
  %11 = zext nneg i16 %10 to i64
  %12 = getelementptr inbounds [0 x float], ptr addrspacecast (ptr addrspace(3) @dyn_a to ptr), i64 0, i64 %11
  %13 = load float, ptr %12, align 4, !tbaa !6
  %14 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %15 = mul i32 %14, %6
  %16 = add i32 %15, %2
  %17 = zext i32 %16 to i64
  %18 = getelementptr inbounds float, ptr %0, i64 %17
  store float %13, ptr %18, align 4, !tbaa !6
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.bar.sync(i32) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #3

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, argmem: write, inaccessiblemem: none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #2 = { convergent nocallback nounwind }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3, !4}
!llvm.ident = !{!5}

!0 = !{ptr @_Z7aliasedPf, !"kernel", i32 1}
!1 = !{ptr @_Z18own_then_neighbourPf, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"float", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !8, i64 0}
