; Real clang output: `clang-19 --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80
; -S -emit-llvm -O2 -gline-tables-only -x cuda kernels.cu`, with kernels.cu:
;
;     #define __global__ __attribute__((global))
;     #define __shared__ __attribute__((shared))
;     #define __device__ __attribute__((device))
;     #define __launch_bounds__(n) __attribute__((launch_bounds(n)))
;     extern "C" {
;     __device__ unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }
;     
;     // Classic shared-memory reduction with a barrier in the loop.
;     __global__ void __launch_bounds__(256) reduce(const float *in, float *out) {
;       __shared__ float s[256];
;       unsigned t = __nvvm_read_ptx_sreg_tid_x();
;       unsigned b = __nvvm_read_ptx_sreg_ctaid_x();
;       s[t] = in[b * 256 + t];
;       __syncthreads();
;       for (unsigned d = 128; d > 0; d >>= 1) {
;         if (t < d) s[t] += s[t + d];
;         __syncthreads();
;       }
;       if (t == 0) out[b] = s[0];
;     }
;     
;     // The same with the barrier in the loop forgotten.
;     __global__ void reduce_racy(const float *in, float *out) {
;       __shared__ float s[256];
;       unsigned t = __nvvm_read_ptx_sreg_tid_x();
;       unsigned b = __nvvm_read_ptx_sreg_ctaid_x();
;       s[t] = in[b * 256 + t];
;       __syncthreads();
;       for (unsigned d = 128; d > 0; d >>= 1) {
;         if (t < d) s[t] += s[t + d];
;       }
;       if (t == 0) out[b] = s[0];
;     }
;     
;     // Tile transpose, 32x32 tiles, 32x8 threads.
;     __global__ void transpose(const float *in, float *out, int n) {
;       __shared__ float tile[32][33];
;       int x = __nvvm_read_ptx_sreg_ctaid_x() * 32 + __nvvm_read_ptx_sreg_tid_x();
;       int y = __nvvm_read_ptx_sreg_ctaid_y() * 32 + __nvvm_read_ptx_sreg_tid_y();
;       for (int j = 0; j < 32; j += 8)
;         tile[__nvvm_read_ptx_sreg_tid_y() + j][__nvvm_read_ptx_sreg_tid_x()] = in[(y + j) * n + x];
;       __syncthreads();
;       x = __nvvm_read_ptx_sreg_ctaid_y() * 32 + __nvvm_read_ptx_sreg_tid_x();
;       y = __nvvm_read_ptx_sreg_ctaid_x() * 32 + __nvvm_read_ptx_sreg_tid_y();
;       for (int j = 0; j < 32; j += 8)
;         out[(y + j) * n + x] = tile[__nvvm_read_ptx_sreg_tid_x()][__nvvm_read_ptx_sreg_tid_y() + j];
;     }
;     
;     // Early exit before a barrier.
;     __global__ void early_exit(float *out, int n) {
;       __shared__ float s[256];
;       unsigned t = __nvvm_read_ptx_sreg_tid_x();
;       if (t >= n) return;
;       s[t] = 1.0f;
;       __syncthreads();
;       out[t] = s[(t + 1) % 256];
;     }
;     }
;
; At -O2 clang unrolls the reduction loop: every step of `reduce_racy` reads what the threads
; of the previous step write, with no barrier between (28 racing pairs, reported once).
; `reduce` (barrier in the loop) and `transpose` (given its 32x8 block) verify clean;
; `early_exit` returns before the barrier in the threads with `t >= n`.
; ERROR: divergent barrier in `early_exit`
; ERROR: data race (read-after-write) on `_ZZ11reduce_racyE1s` in `reduce_racy`
; transpose's global index `(y + j) * n + x` multiplies a thread-dependent value by the
; parameter n: not affine, so its stores are warnings (never silent; clang unrolls it at -O2).
; WARNING: could not prove race freedom in `transpose`
; WARNING: could not prove race freedom in `transpose`
; WARNING: could not prove race freedom in `transpose`
; WARNING: could not prove race freedom in `transpose`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: kernel-block-size=transpose=32,8 single-block
; ModuleID = 'kernels.cu'
source_filename = "kernels.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6reduceE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4
@_ZZ11reduce_racyE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4
@_ZZ9transposeE4tile = internal unnamed_addr addrspace(3) global [32 x [33 x float]] undef, align 4
@_ZZ10early_exitE1s = internal unnamed_addr addrspace(3) global [256 x float] undef, align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define dso_local noundef range(i32 0, 1024) i32 @tid() local_unnamed_addr #0 !dbg !13 {
  %1 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  ret i32 %1, !dbg !17
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @reduce(ptr nocapture noundef readonly %0, ptr nocapture noundef writeonly %1) local_unnamed_addr #2 !dbg !18 {
  %3 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !19
  %4 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !20
  %5 = shl i32 %4, 8, !dbg !21
  %6 = or disjoint i32 %5, %3, !dbg !22
  %7 = zext i32 %6 to i64, !dbg !23
  %8 = getelementptr inbounds float, ptr %0, i64 %7, !dbg !23
  %9 = load float, ptr %8, align 4, !dbg !23, !tbaa !24
  %10 = zext nneg i32 %3 to i64, !dbg !28
  %11 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %10, !dbg !28
  store float %9, ptr %11, align 4, !dbg !29, !tbaa !24
  tail call void @llvm.nvvm.barrier0(), !dbg !30
  %12 = icmp ult i32 %3, 128, !dbg !31
  br i1 %12, label %13, label %20, !dbg !32

13:                                               ; preds = %2
  %14 = or disjoint i32 %3, 128
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %15
  %17 = load float, ptr %16, align 4, !dbg !33, !tbaa !24
  %18 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %19 = fadd contract float %17, %18, !dbg !34
  store float %19, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %20, !dbg !35

20:                                               ; preds = %13, %2
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %21 = icmp ult i32 %3, 64, !dbg !31
  br i1 %21, label %22, label %29, !dbg !32

22:                                               ; preds = %20
  %23 = or disjoint i32 %3, 64
  %24 = zext nneg i32 %23 to i64
  %25 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %24
  %26 = load float, ptr %25, align 4, !dbg !33, !tbaa !24
  %27 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %28 = fadd contract float %26, %27, !dbg !34
  store float %28, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %29, !dbg !35

29:                                               ; preds = %22, %20
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %30 = icmp ult i32 %3, 32, !dbg !31
  br i1 %30, label %31, label %38, !dbg !32

31:                                               ; preds = %29
  %32 = or disjoint i32 %3, 32
  %33 = zext nneg i32 %32 to i64
  %34 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %33
  %35 = load float, ptr %34, align 4, !dbg !33, !tbaa !24
  %36 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %37 = fadd contract float %35, %36, !dbg !34
  store float %37, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %38, !dbg !35

38:                                               ; preds = %31, %29
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %39 = icmp ult i32 %3, 16, !dbg !31
  br i1 %39, label %40, label %47, !dbg !32

40:                                               ; preds = %38
  %41 = or disjoint i32 %3, 16
  %42 = zext nneg i32 %41 to i64
  %43 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %42
  %44 = load float, ptr %43, align 4, !dbg !33, !tbaa !24
  %45 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %46 = fadd contract float %44, %45, !dbg !34
  store float %46, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %47, !dbg !35

47:                                               ; preds = %40, %38
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %48 = icmp ult i32 %3, 8, !dbg !31
  br i1 %48, label %49, label %56, !dbg !32

49:                                               ; preds = %47
  %50 = or disjoint i32 %3, 8
  %51 = zext nneg i32 %50 to i64
  %52 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %51
  %53 = load float, ptr %52, align 4, !dbg !33, !tbaa !24
  %54 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %55 = fadd contract float %53, %54, !dbg !34
  store float %55, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %56, !dbg !35

56:                                               ; preds = %49, %47
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %57 = icmp ult i32 %3, 4, !dbg !31
  br i1 %57, label %58, label %65, !dbg !32

58:                                               ; preds = %56
  %59 = or disjoint i32 %3, 4
  %60 = zext nneg i32 %59 to i64
  %61 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %60
  %62 = load float, ptr %61, align 4, !dbg !33, !tbaa !24
  %63 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %64 = fadd contract float %62, %63, !dbg !34
  store float %64, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %65, !dbg !35

65:                                               ; preds = %58, %56
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %66 = icmp ult i32 %3, 2, !dbg !31
  br i1 %66, label %67, label %74, !dbg !32

67:                                               ; preds = %65
  %68 = or disjoint i32 %3, 2
  %69 = zext nneg i32 %68 to i64
  %70 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %69
  %71 = load float, ptr %70, align 4, !dbg !33, !tbaa !24
  %72 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %73 = fadd contract float %71, %72, !dbg !34
  store float %73, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %74, !dbg !35

74:                                               ; preds = %67, %65
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %75 = icmp eq i32 %3, 0, !dbg !31
  br i1 %75, label %76, label %80, !dbg !32

76:                                               ; preds = %74
  %77 = load float, ptr getelementptr inbounds (i8, ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 4), align 4, !dbg !33, !tbaa !24
  %78 = load float, ptr %11, align 4, !dbg !34, !tbaa !24
  %79 = fadd contract float %77, %78, !dbg !34
  store float %79, ptr %11, align 4, !dbg !34, !tbaa !24
  br label %80, !dbg !35

80:                                               ; preds = %76, %74
  tail call void @llvm.nvvm.barrier0(), !dbg !36
  %81 = icmp eq i32 %3, 0, !dbg !37
  br i1 %81, label %82, label %86, !dbg !38

82:                                               ; preds = %80
  %83 = zext nneg i32 %4 to i64
  %84 = getelementptr inbounds float, ptr %1, i64 %83
  %85 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), align 4, !dbg !39, !tbaa !24
  store float %85, ptr %84, align 4, !dbg !40, !tbaa !24
  br label %86, !dbg !41

86:                                               ; preds = %82, %80
  ret void, !dbg !42
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #3

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @reduce_racy(ptr nocapture noundef readonly %0, ptr nocapture noundef writeonly %1) local_unnamed_addr #2 !dbg !43 {
  %3 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !44
  %4 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !45
  %5 = shl i32 %4, 8, !dbg !46
  %6 = add i32 %5, %3, !dbg !47
  %7 = zext i32 %6 to i64, !dbg !48
  %8 = getelementptr inbounds float, ptr %0, i64 %7, !dbg !48
  %9 = load float, ptr %8, align 4, !dbg !48, !tbaa !24
  %10 = zext nneg i32 %3 to i64, !dbg !49
  %11 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %10, !dbg !49
  store float %9, ptr %11, align 4, !dbg !50, !tbaa !24
  tail call void @llvm.nvvm.barrier0(), !dbg !51
  %12 = icmp ult i32 %3, 128, !dbg !52
  br i1 %12, label %13, label %20, !dbg !53

13:                                               ; preds = %2
  %14 = or disjoint i32 %3, 128
  %15 = zext nneg i32 %14 to i64
  %16 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %15
  %17 = load float, ptr %16, align 4, !dbg !54, !tbaa !24
  %18 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %19 = fadd contract float %17, %18, !dbg !55
  store float %19, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %20, !dbg !56

20:                                               ; preds = %2, %13
  %21 = icmp ult i32 %3, 64, !dbg !52
  br i1 %21, label %22, label %29, !dbg !53

22:                                               ; preds = %20
  %23 = or disjoint i32 %3, 64
  %24 = zext nneg i32 %23 to i64
  %25 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %24
  %26 = load float, ptr %25, align 4, !dbg !54, !tbaa !24
  %27 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %28 = fadd contract float %26, %27, !dbg !55
  store float %28, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %29, !dbg !56

29:                                               ; preds = %22, %20
  %30 = icmp ult i32 %3, 32, !dbg !52
  br i1 %30, label %31, label %38, !dbg !53

31:                                               ; preds = %29
  %32 = or disjoint i32 %3, 32
  %33 = zext nneg i32 %32 to i64
  %34 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %33
  %35 = load float, ptr %34, align 4, !dbg !54, !tbaa !24
  %36 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %37 = fadd contract float %35, %36, !dbg !55
  store float %37, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %38, !dbg !56

38:                                               ; preds = %31, %29
  %39 = icmp ult i32 %3, 16, !dbg !52
  br i1 %39, label %40, label %47, !dbg !53

40:                                               ; preds = %38
  %41 = or disjoint i32 %3, 16
  %42 = zext nneg i32 %41 to i64
  %43 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %42
  %44 = load float, ptr %43, align 4, !dbg !54, !tbaa !24
  %45 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %46 = fadd contract float %44, %45, !dbg !55
  store float %46, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %47, !dbg !56

47:                                               ; preds = %40, %38
  %48 = icmp ult i32 %3, 8, !dbg !52
  br i1 %48, label %49, label %56, !dbg !53

49:                                               ; preds = %47
  %50 = or disjoint i32 %3, 8
  %51 = zext nneg i32 %50 to i64
  %52 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %51
  %53 = load float, ptr %52, align 4, !dbg !54, !tbaa !24
  %54 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %55 = fadd contract float %53, %54, !dbg !55
  store float %55, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %56, !dbg !56

56:                                               ; preds = %49, %47
  %57 = icmp ult i32 %3, 4, !dbg !52
  br i1 %57, label %58, label %65, !dbg !53

58:                                               ; preds = %56
  %59 = or disjoint i32 %3, 4
  %60 = zext nneg i32 %59 to i64
  %61 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %60
  %62 = load float, ptr %61, align 4, !dbg !54, !tbaa !24
  %63 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %64 = fadd contract float %62, %63, !dbg !55
  store float %64, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %65, !dbg !56

65:                                               ; preds = %58, %56
  %66 = icmp ult i32 %3, 2, !dbg !52
  br i1 %66, label %67, label %74, !dbg !53

67:                                               ; preds = %65
  %68 = or disjoint i32 %3, 2
  %69 = zext nneg i32 %68 to i64
  %70 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %69
  %71 = load float, ptr %70, align 4, !dbg !54, !tbaa !24
  %72 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %73 = fadd contract float %71, %72, !dbg !55
  store float %73, ptr %11, align 4, !dbg !55, !tbaa !24
  br label %74, !dbg !56

74:                                               ; preds = %67, %65
  %75 = icmp eq i32 %3, 0, !dbg !53
  br i1 %75, label %76, label %83, !dbg !53

76:                                               ; preds = %74
  %77 = load float, ptr getelementptr inbounds (i8, ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 4), align 4, !dbg !54, !tbaa !24
  %78 = load float, ptr %11, align 4, !dbg !55, !tbaa !24
  %79 = fadd contract float %77, %78, !dbg !55
  store float %79, ptr %11, align 4, !dbg !55, !tbaa !24
  %80 = zext nneg i32 %4 to i64
  %81 = getelementptr inbounds float, ptr %1, i64 %80
  %82 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), align 4, !dbg !57, !tbaa !24
  store float %82, ptr %81, align 4, !dbg !58, !tbaa !24
  br label %83, !dbg !59

83:                                               ; preds = %74, %76
  ret void, !dbg !60
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @transpose(ptr nocapture noundef readonly %0, ptr nocapture noundef writeonly %1, i32 noundef %2) local_unnamed_addr #2 !dbg !61 {
  %4 = tail call range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !62
  %5 = shl nsw i32 %4, 5, !dbg !63
  %6 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !64
  %7 = add nuw nsw i32 %5, %6, !dbg !65
  %8 = tail call range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !66
  %9 = shl nuw nsw i32 %8, 5, !dbg !67
  %10 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !68
  %11 = add nuw nsw i32 %9, %10, !dbg !69
  %12 = zext nneg i32 %6 to i64
  %13 = mul nsw i32 %11, %2, !dbg !70
  %14 = add nsw i32 %7, %13, !dbg !71
  %15 = sext i32 %14 to i64, !dbg !72
  %16 = getelementptr inbounds float, ptr %0, i64 %15, !dbg !72
  %17 = load float, ptr %16, align 4, !dbg !72, !tbaa !24
  %18 = zext nneg i32 %10 to i64, !dbg !73
  %19 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %18, i64 %12, !dbg !73
  store float %17, ptr %19, align 4, !dbg !74, !tbaa !24
  %20 = add nuw nsw i32 %11, 8, !dbg !75
  %21 = mul nsw i32 %20, %2, !dbg !70
  %22 = add nsw i32 %7, %21, !dbg !71
  %23 = sext i32 %22 to i64, !dbg !72
  %24 = getelementptr inbounds float, ptr %0, i64 %23, !dbg !72
  %25 = load float, ptr %24, align 4, !dbg !72, !tbaa !24
  %26 = add nuw nsw i32 %10, 8, !dbg !76
  %27 = zext nneg i32 %26 to i64, !dbg !73
  %28 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %27, i64 %12, !dbg !73
  store float %25, ptr %28, align 4, !dbg !74, !tbaa !24
  %29 = add nuw nsw i32 %11, 16, !dbg !75
  %30 = mul nsw i32 %29, %2, !dbg !70
  %31 = add nsw i32 %7, %30, !dbg !71
  %32 = sext i32 %31 to i64, !dbg !72
  %33 = getelementptr inbounds float, ptr %0, i64 %32, !dbg !72
  %34 = load float, ptr %33, align 4, !dbg !72, !tbaa !24
  %35 = add nuw nsw i32 %10, 16, !dbg !76
  %36 = zext nneg i32 %35 to i64, !dbg !73
  %37 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %36, i64 %12, !dbg !73
  store float %34, ptr %37, align 4, !dbg !74, !tbaa !24
  %38 = add nuw nsw i32 %11, 24, !dbg !75
  %39 = mul nsw i32 %38, %2, !dbg !70
  %40 = add nsw i32 %7, %39, !dbg !71
  %41 = sext i32 %40 to i64, !dbg !72
  %42 = getelementptr inbounds float, ptr %0, i64 %41, !dbg !72
  %43 = load float, ptr %42, align 4, !dbg !72, !tbaa !24
  %44 = add nuw nsw i32 %10, 24, !dbg !76
  %45 = zext nneg i32 %44 to i64, !dbg !73
  %46 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %45, i64 %12, !dbg !73
  store float %43, ptr %46, align 4, !dbg !74, !tbaa !24
  tail call void @llvm.nvvm.barrier0(), !dbg !77
  %47 = add nuw nsw i32 %9, %6, !dbg !78
  %48 = add nuw nsw i32 %5, %10, !dbg !79
  %49 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %12, i64 %18, !dbg !80
  %50 = load float, ptr %49, align 4, !dbg !80, !tbaa !24
  %51 = mul nsw i32 %48, %2, !dbg !81
  %52 = add nsw i32 %47, %51, !dbg !82
  %53 = sext i32 %52 to i64, !dbg !83
  %54 = getelementptr inbounds float, ptr %1, i64 %53, !dbg !83
  store float %50, ptr %54, align 4, !dbg !84, !tbaa !24
  %55 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %12, i64 %27, !dbg !80
  %56 = load float, ptr %55, align 4, !dbg !80, !tbaa !24
  %57 = add nuw nsw i32 %48, 8, !dbg !85
  %58 = mul nsw i32 %57, %2, !dbg !81
  %59 = add nsw i32 %47, %58, !dbg !82
  %60 = sext i32 %59 to i64, !dbg !83
  %61 = getelementptr inbounds float, ptr %1, i64 %60, !dbg !83
  store float %56, ptr %61, align 4, !dbg !84, !tbaa !24
  %62 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %12, i64 %36, !dbg !80
  %63 = load float, ptr %62, align 4, !dbg !80, !tbaa !24
  %64 = add nuw nsw i32 %48, 16, !dbg !85
  %65 = mul nsw i32 %64, %2, !dbg !81
  %66 = add nsw i32 %47, %65, !dbg !82
  %67 = sext i32 %66 to i64, !dbg !83
  %68 = getelementptr inbounds float, ptr %1, i64 %67, !dbg !83
  store float %63, ptr %68, align 4, !dbg !84, !tbaa !24
  %69 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %12, i64 %45, !dbg !80
  %70 = load float, ptr %69, align 4, !dbg !80, !tbaa !24
  %71 = add nuw nsw i32 %48, 24, !dbg !85
  %72 = mul nsw i32 %71, %2, !dbg !81
  %73 = add nsw i32 %47, %72, !dbg !82
  %74 = sext i32 %73 to i64, !dbg !83
  %75 = getelementptr inbounds float, ptr %1, i64 %74, !dbg !83
  store float %70, ptr %75, align 4, !dbg !84, !tbaa !24
  ret void, !dbg !86
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @early_exit(ptr nocapture noundef writeonly %0, i32 noundef %1) local_unnamed_addr #2 !dbg !87 {
  %3 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !88
  %4 = icmp ult i32 %3, %1, !dbg !89
  br i1 %4, label %5, label %14, !dbg !90

5:                                                ; preds = %2
  %6 = zext nneg i32 %3 to i64
  %7 = getelementptr inbounds float, ptr %0, i64 %6
  %8 = add nuw nsw i32 %3, 1
  %9 = and i32 %8, 255
  %10 = zext nneg i32 %9 to i64
  %11 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10early_exitE1s to ptr), i64 0, i64 %10
  %12 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10early_exitE1s to ptr), i64 0, i64 %6
  store float 1.000000e+00, ptr %12, align 4, !dbg !91, !tbaa !24
  tail call void @llvm.nvvm.barrier0(), !dbg !92
  %13 = load float, ptr %11, align 4, !dbg !93, !tbaa !24
  store float %13, ptr %7, align 4, !dbg !94, !tbaa !24
  br label %14, !dbg !95

14:                                               ; preds = %2, %5
  ret void, !dbg !95
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #3 = { convergent nocallback nounwind }

!llvm.dbg.cu = !{!0}
!nvvm.annotations = !{!2, !3, !4, !5, !6}
!llvm.module.flags = !{!7, !8, !9, !10, !11}
!llvm.ident = !{!12}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "kernels.cu", directory: "/tmp/cuda")
!2 = !{ptr @reduce, !"kernel", i32 1}
!3 = !{ptr @reduce, !"maxntidx", i32 256}
!4 = !{ptr @reduce_racy, !"kernel", i32 1}
!5 = !{ptr @transpose, !"kernel", i32 1}
!6 = !{ptr @early_exit, !"kernel", i32 1}
!7 = !{i32 7, !"Dwarf Version", i32 2}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!11 = !{i32 7, !"frame-pointer", i32 2}
!12 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!13 = distinct !DISubprogram(name: "tid", scope: !1, file: !1, line: 6, type: !14, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!14 = !DISubroutineType(types: !15)
!15 = !{}
!16 = !DILocation(line: 6, column: 36, scope: !13)
!17 = !DILocation(line: 6, column: 29, scope: !13)
!18 = distinct !DISubprogram(name: "reduce", scope: !1, file: !1, line: 9, type: !14, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!19 = !DILocation(line: 11, column: 16, scope: !18)
!20 = !DILocation(line: 12, column: 16, scope: !18)
!21 = !DILocation(line: 13, column: 15, scope: !18)
!22 = !DILocation(line: 13, column: 21, scope: !18)
!23 = !DILocation(line: 13, column: 10, scope: !18)
!24 = !{!25, !25, i64 0}
!25 = !{!"float", !26, i64 0}
!26 = !{!"omnipotent char", !27, i64 0}
!27 = !{!"Simple C++ TBAA"}
!28 = !DILocation(line: 13, column: 3, scope: !18)
!29 = !DILocation(line: 13, column: 8, scope: !18)
!30 = !DILocation(line: 14, column: 3, scope: !18)
!31 = !DILocation(line: 16, column: 11, scope: !18)
!32 = !DILocation(line: 16, column: 9, scope: !18)
!33 = !DILocation(line: 16, column: 24, scope: !18)
!34 = !DILocation(line: 16, column: 21, scope: !18)
!35 = !DILocation(line: 16, column: 16, scope: !18)
!36 = !DILocation(line: 17, column: 5, scope: !18)
!37 = !DILocation(line: 19, column: 9, scope: !18)
!38 = !DILocation(line: 19, column: 7, scope: !18)
!39 = !DILocation(line: 19, column: 24, scope: !18)
!40 = !DILocation(line: 19, column: 22, scope: !18)
!41 = !DILocation(line: 19, column: 15, scope: !18)
!42 = !DILocation(line: 20, column: 1, scope: !18)
!43 = distinct !DISubprogram(name: "reduce_racy", scope: !1, file: !1, line: 23, type: !14, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!44 = !DILocation(line: 25, column: 16, scope: !43)
!45 = !DILocation(line: 26, column: 16, scope: !43)
!46 = !DILocation(line: 27, column: 15, scope: !43)
!47 = !DILocation(line: 27, column: 21, scope: !43)
!48 = !DILocation(line: 27, column: 10, scope: !43)
!49 = !DILocation(line: 27, column: 3, scope: !43)
!50 = !DILocation(line: 27, column: 8, scope: !43)
!51 = !DILocation(line: 28, column: 3, scope: !43)
!52 = !DILocation(line: 30, column: 11, scope: !43)
!53 = !DILocation(line: 30, column: 9, scope: !43)
!54 = !DILocation(line: 30, column: 24, scope: !43)
!55 = !DILocation(line: 30, column: 21, scope: !43)
!56 = !DILocation(line: 30, column: 16, scope: !43)
!57 = !DILocation(line: 32, column: 24, scope: !43)
!58 = !DILocation(line: 32, column: 22, scope: !43)
!59 = !DILocation(line: 32, column: 15, scope: !43)
!60 = !DILocation(line: 33, column: 1, scope: !43)
!61 = distinct !DISubprogram(name: "transpose", scope: !1, file: !1, line: 36, type: !14, scopeLine: 36, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!62 = !DILocation(line: 38, column: 11, scope: !61)
!63 = !DILocation(line: 38, column: 42, scope: !61)
!64 = !DILocation(line: 38, column: 49, scope: !61)
!65 = !DILocation(line: 38, column: 47, scope: !61)
!66 = !DILocation(line: 39, column: 11, scope: !61)
!67 = !DILocation(line: 39, column: 42, scope: !61)
!68 = !DILocation(line: 39, column: 49, scope: !61)
!69 = !DILocation(line: 39, column: 47, scope: !61)
!70 = !DILocation(line: 41, column: 87, scope: !61)
!71 = !DILocation(line: 41, column: 91, scope: !61)
!72 = !DILocation(line: 41, column: 76, scope: !61)
!73 = !DILocation(line: 41, column: 5, scope: !61)
!74 = !DILocation(line: 41, column: 74, scope: !61)
!75 = !DILocation(line: 41, column: 82, scope: !61)
!76 = !DILocation(line: 41, column: 39, scope: !61)
!77 = !DILocation(line: 42, column: 3, scope: !61)
!78 = !DILocation(line: 43, column: 43, scope: !61)
!79 = !DILocation(line: 44, column: 43, scope: !61)
!80 = !DILocation(line: 46, column: 28, scope: !61)
!81 = !DILocation(line: 46, column: 17, scope: !61)
!82 = !DILocation(line: 46, column: 21, scope: !61)
!83 = !DILocation(line: 46, column: 5, scope: !61)
!84 = !DILocation(line: 46, column: 26, scope: !61)
!85 = !DILocation(line: 46, column: 12, scope: !61)
!86 = !DILocation(line: 47, column: 1, scope: !61)
!87 = distinct !DISubprogram(name: "early_exit", scope: !1, file: !1, line: 50, type: !14, scopeLine: 50, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!88 = !DILocation(line: 52, column: 16, scope: !87)
!89 = !DILocation(line: 53, column: 9, scope: !87)
!90 = !DILocation(line: 53, column: 7, scope: !87)
!91 = !DILocation(line: 54, column: 8, scope: !87)
!92 = !DILocation(line: 55, column: 3, scope: !87)
!93 = !DILocation(line: 56, column: 12, scope: !87)
!94 = !DILocation(line: 56, column: 10, scope: !87)
!95 = !DILocation(line: 57, column: 1, scope: !87)
