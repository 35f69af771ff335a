; clang 19 -O2 output of (CUDA, 256 threads a block):
;     __global__ void k(float *out) {
;       if (blockIdx.x % 2 == 0 && threadIdx.x == 0) out[blockIdx.x / 2] = 1.0f;
;     }
; Only even blocks store into out[blockIdx.x / 2]: one block a slot. No finding: the quotient
; alone would let blocks 0 and 1 meet, but the guard `blockIdx.x % 2 == 0` keeps block 1
; away (a condition on the block the check between blocks cannot express: the pair is left to
; the check within a block, never reported as a race it has not proven).
; OPTIONS: block-size=256
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define dso_local void @_Z1kPf(ptr nocapture noundef writeonly %0) local_unnamed_addr #0 {
  %2 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %3 = and i32 %2, 1
  %4 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = or i32 %4, %3
  %6 = icmp eq i32 %5, 0
  br i1 %6, label %7, label %11

7:                                                ; preds = %1
  %8 = lshr exact i32 %2, 1
  %9 = zext nneg i32 %8 to i64
  %10 = getelementptr inbounds float, ptr %0, i64 %9
  store float 1.000000e+00, ptr %10, align 4, !tbaa !5
  br label %11

11:                                               ; preds = %7, %1
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!nvvm.annotations = !{!0}
!llvm.module.flags = !{!1, !2, !3}
!llvm.ident = !{!4}

!0 = !{ptr @_Z1kPf, !"kernel", i32 1}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"float", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
