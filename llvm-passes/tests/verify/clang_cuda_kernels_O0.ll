; Real clang output: `clang-19 --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80
; -S -emit-llvm -O0 -gline-tables-only -x cuda kernels.cu`, with kernels.cu:
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
; At -O0 the reduction loop stays a loop: in `reduce_racy` its stride `d` halves from one
; iteration of the barrier-free loop to the next, not affine, but a short known sequence
; (128, ..., 1) whose values are tried for each thread: thread 1 adds s[2] into s[1] with d = 2
; while thread 0 reads s[1] with d = 1 (this was once only a warning). `reduce` and
; `transpose` (given its 32x8 block) verify clean; `early_exit` returns before the barrier in
; the threads with `t >= n`.
; ERROR: divergent barrier in `early_exit`
; ERROR: data race (write-after-read) on `_ZZ11reduce_racyE1s` in `reduce_racy`: thread 0 reads byte 4
; transpose's global index `(y + j) * n + x` multiplies a thread-dependent value by the
; parameter n: not affine, so its stores are warnings (never silent; clang unrolls it at -O2).
; WARNING: could not prove race freedom in `transpose`
; Launched as one block (`single-block`): this case is about threads of one block; its global
; stores (`out[tid]` in every block, say) would also race between blocks, which other cases test.
; OPTIONS: kernel-block-size=transpose=32,8 single-block
; ModuleID = 'kernels.cu'
source_filename = "kernels.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6reduceE1s = internal addrspace(3) global [256 x float] undef, align 4
@_ZZ11reduce_racyE1s = internal addrspace(3) global [256 x float] undef, align 4
@_ZZ9transposeE4tile = internal addrspace(3) global [32 x [33 x float]] undef, align 4
@_ZZ10early_exitE1s = internal addrspace(3) global [256 x float] undef, align 4

; Function Attrs: convergent mustprogress noinline nounwind optnone
define dso_local i32 @tid() #0 !dbg !13 {
  %1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !16
  ret i32 %1, !dbg !17
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @reduce(ptr noundef %0, ptr noundef %1) #2 !dbg !18 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %8 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !19
  store i32 %8, ptr %5, align 4, !dbg !20
  %9 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !21
  store i32 %9, ptr %6, align 4, !dbg !22
  %10 = load ptr, ptr %3, align 8, !dbg !23
  %11 = load i32, ptr %6, align 4, !dbg !24
  %12 = mul i32 %11, 256, !dbg !25
  %13 = load i32, ptr %5, align 4, !dbg !26
  %14 = add i32 %12, %13, !dbg !27
  %15 = zext i32 %14 to i64, !dbg !23
  %16 = getelementptr inbounds float, ptr %10, i64 %15, !dbg !23
  %17 = load float, ptr %16, align 4, !dbg !23
  %18 = load i32, ptr %5, align 4, !dbg !28
  %19 = zext i32 %18 to i64, !dbg !29
  %20 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %19, !dbg !29
  store float %17, ptr %20, align 4, !dbg !30
  call void @llvm.nvvm.barrier0(), !dbg !31
  store i32 128, ptr %7, align 4, !dbg !32
  br label %21, !dbg !33

21:                                               ; preds = %41, %2
  %22 = load i32, ptr %7, align 4, !dbg !34
  %23 = icmp ugt i32 %22, 0, !dbg !35
  br i1 %23, label %24, label %44, !dbg !36

24:                                               ; preds = %21
  %25 = load i32, ptr %5, align 4, !dbg !37
  %26 = load i32, ptr %7, align 4, !dbg !38
  %27 = icmp ult i32 %25, %26, !dbg !39
  br i1 %27, label %28, label %40, !dbg !37

28:                                               ; preds = %24
  %29 = load i32, ptr %5, align 4, !dbg !40
  %30 = load i32, ptr %7, align 4, !dbg !41
  %31 = add i32 %29, %30, !dbg !42
  %32 = zext i32 %31 to i64, !dbg !43
  %33 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %32, !dbg !43
  %34 = load float, ptr %33, align 4, !dbg !43
  %35 = load i32, ptr %5, align 4, !dbg !44
  %36 = zext i32 %35 to i64, !dbg !45
  %37 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), i64 0, i64 %36, !dbg !45
  %38 = load float, ptr %37, align 4, !dbg !46
  %39 = fadd contract float %38, %34, !dbg !46
  store float %39, ptr %37, align 4, !dbg !46
  br label %40, !dbg !45

40:                                               ; preds = %28, %24
  call void @llvm.nvvm.barrier0(), !dbg !47
  br label %41, !dbg !48

41:                                               ; preds = %40
  %42 = load i32, ptr %7, align 4, !dbg !49
  %43 = lshr i32 %42, 1, !dbg !49
  store i32 %43, ptr %7, align 4, !dbg !49
  br label %21, !dbg !36, !llvm.loop !50

44:                                               ; preds = %21
  %45 = load i32, ptr %5, align 4, !dbg !52
  %46 = icmp eq i32 %45, 0, !dbg !53
  br i1 %46, label %47, label %53, !dbg !52

47:                                               ; preds = %44
  %48 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ6reduceE1s to ptr), align 4, !dbg !54
  %49 = load ptr, ptr %4, align 8, !dbg !55
  %50 = load i32, ptr %6, align 4, !dbg !56
  %51 = zext i32 %50 to i64, !dbg !55
  %52 = getelementptr inbounds float, ptr %49, i64 %51, !dbg !55
  store float %48, ptr %52, align 4, !dbg !57
  br label %53, !dbg !55

53:                                               ; preds = %47, %44
  ret void, !dbg !58
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier0() #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @reduce_racy(ptr noundef %0, ptr noundef %1) #2 !dbg !59 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %8 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !60
  store i32 %8, ptr %5, align 4, !dbg !61
  %9 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !62
  store i32 %9, ptr %6, align 4, !dbg !63
  %10 = load ptr, ptr %3, align 8, !dbg !64
  %11 = load i32, ptr %6, align 4, !dbg !65
  %12 = mul i32 %11, 256, !dbg !66
  %13 = load i32, ptr %5, align 4, !dbg !67
  %14 = add i32 %12, %13, !dbg !68
  %15 = zext i32 %14 to i64, !dbg !64
  %16 = getelementptr inbounds float, ptr %10, i64 %15, !dbg !64
  %17 = load float, ptr %16, align 4, !dbg !64
  %18 = load i32, ptr %5, align 4, !dbg !69
  %19 = zext i32 %18 to i64, !dbg !70
  %20 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %19, !dbg !70
  store float %17, ptr %20, align 4, !dbg !71
  call void @llvm.nvvm.barrier0(), !dbg !72
  store i32 128, ptr %7, align 4, !dbg !73
  br label %21, !dbg !74

21:                                               ; preds = %41, %2
  %22 = load i32, ptr %7, align 4, !dbg !75
  %23 = icmp ugt i32 %22, 0, !dbg !76
  br i1 %23, label %24, label %44, !dbg !77

24:                                               ; preds = %21
  %25 = load i32, ptr %5, align 4, !dbg !78
  %26 = load i32, ptr %7, align 4, !dbg !79
  %27 = icmp ult i32 %25, %26, !dbg !80
  br i1 %27, label %28, label %40, !dbg !78

28:                                               ; preds = %24
  %29 = load i32, ptr %5, align 4, !dbg !81
  %30 = load i32, ptr %7, align 4, !dbg !82
  %31 = add i32 %29, %30, !dbg !83
  %32 = zext i32 %31 to i64, !dbg !84
  %33 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %32, !dbg !84
  %34 = load float, ptr %33, align 4, !dbg !84
  %35 = load i32, ptr %5, align 4, !dbg !85
  %36 = zext i32 %35 to i64, !dbg !86
  %37 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), i64 0, i64 %36, !dbg !86
  %38 = load float, ptr %37, align 4, !dbg !87
  %39 = fadd contract float %38, %34, !dbg !87
  store float %39, ptr %37, align 4, !dbg !87
  br label %40, !dbg !86

40:                                               ; preds = %28, %24
  br label %41, !dbg !88

41:                                               ; preds = %40
  %42 = load i32, ptr %7, align 4, !dbg !89
  %43 = lshr i32 %42, 1, !dbg !89
  store i32 %43, ptr %7, align 4, !dbg !89
  br label %21, !dbg !77, !llvm.loop !90

44:                                               ; preds = %21
  %45 = load i32, ptr %5, align 4, !dbg !91
  %46 = icmp eq i32 %45, 0, !dbg !92
  br i1 %46, label %47, label %53, !dbg !91

47:                                               ; preds = %44
  %48 = load float, ptr addrspacecast (ptr addrspace(3) @_ZZ11reduce_racyE1s to ptr), align 4, !dbg !93
  %49 = load ptr, ptr %4, align 8, !dbg !94
  %50 = load i32, ptr %6, align 4, !dbg !95
  %51 = zext i32 %50 to i64, !dbg !94
  %52 = getelementptr inbounds float, ptr %49, i64 %51, !dbg !94
  store float %48, ptr %52, align 4, !dbg !96
  br label %53, !dbg !94

53:                                               ; preds = %47, %44
  ret void, !dbg !97
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @transpose(ptr noundef %0, ptr noundef %1, i32 noundef %2) #2 !dbg !98 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  store ptr %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store i32 %2, ptr %6, align 4
  %11 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !99
  %12 = mul nsw i32 %11, 32, !dbg !100
  %13 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !101
  %14 = add nsw i32 %12, %13, !dbg !102
  store i32 %14, ptr %7, align 4, !dbg !103
  %15 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !104
  %16 = mul nsw i32 %15, 32, !dbg !105
  %17 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !106
  %18 = add nsw i32 %16, %17, !dbg !107
  store i32 %18, ptr %8, align 4, !dbg !108
  store i32 0, ptr %9, align 4, !dbg !109
  br label %19, !dbg !110

19:                                               ; preds = %42, %3
  %20 = load i32, ptr %9, align 4, !dbg !111
  %21 = icmp slt i32 %20, 32, !dbg !112
  br i1 %21, label %22, label %45, !dbg !113

22:                                               ; preds = %19
  %23 = load ptr, ptr %4, align 8, !dbg !114
  %24 = load i32, ptr %8, align 4, !dbg !115
  %25 = load i32, ptr %9, align 4, !dbg !116
  %26 = add nsw i32 %24, %25, !dbg !117
  %27 = load i32, ptr %6, align 4, !dbg !118
  %28 = mul nsw i32 %26, %27, !dbg !119
  %29 = load i32, ptr %7, align 4, !dbg !120
  %30 = add nsw i32 %28, %29, !dbg !121
  %31 = sext i32 %30 to i64, !dbg !114
  %32 = getelementptr inbounds float, ptr %23, i64 %31, !dbg !114
  %33 = load float, ptr %32, align 4, !dbg !114
  %34 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !122
  %35 = load i32, ptr %9, align 4, !dbg !123
  %36 = add nsw i32 %34, %35, !dbg !124
  %37 = sext i32 %36 to i64, !dbg !125
  %38 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %37, !dbg !125
  %39 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !126
  %40 = sext i32 %39 to i64, !dbg !125
  %41 = getelementptr inbounds [33 x float], ptr %38, i64 0, i64 %40, !dbg !125
  store float %33, ptr %41, align 4, !dbg !127
  br label %42, !dbg !125

42:                                               ; preds = %22
  %43 = load i32, ptr %9, align 4, !dbg !128
  %44 = add nsw i32 %43, 8, !dbg !128
  store i32 %44, ptr %9, align 4, !dbg !128
  br label %19, !dbg !113, !llvm.loop !129

45:                                               ; preds = %19
  call void @llvm.nvvm.barrier0(), !dbg !131
  %46 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y(), !dbg !132
  %47 = mul nsw i32 %46, 32, !dbg !133
  %48 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !134
  %49 = add nsw i32 %47, %48, !dbg !135
  store i32 %49, ptr %7, align 4, !dbg !136
  %50 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !137
  %51 = mul nsw i32 %50, 32, !dbg !138
  %52 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !139
  %53 = add nsw i32 %51, %52, !dbg !140
  store i32 %53, ptr %8, align 4, !dbg !141
  store i32 0, ptr %10, align 4, !dbg !142
  br label %54, !dbg !143

54:                                               ; preds = %77, %45
  %55 = load i32, ptr %10, align 4, !dbg !144
  %56 = icmp slt i32 %55, 32, !dbg !145
  br i1 %56, label %57, label %80, !dbg !146

57:                                               ; preds = %54
  %58 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !147
  %59 = sext i32 %58 to i64, !dbg !148
  %60 = getelementptr inbounds [32 x [33 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ9transposeE4tile to ptr), i64 0, i64 %59, !dbg !148
  %61 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y(), !dbg !149
  %62 = load i32, ptr %10, align 4, !dbg !150
  %63 = add nsw i32 %61, %62, !dbg !151
  %64 = sext i32 %63 to i64, !dbg !148
  %65 = getelementptr inbounds [33 x float], ptr %60, i64 0, i64 %64, !dbg !148
  %66 = load float, ptr %65, align 4, !dbg !148
  %67 = load ptr, ptr %5, align 8, !dbg !152
  %68 = load i32, ptr %8, align 4, !dbg !153
  %69 = load i32, ptr %10, align 4, !dbg !154
  %70 = add nsw i32 %68, %69, !dbg !155
  %71 = load i32, ptr %6, align 4, !dbg !156
  %72 = mul nsw i32 %70, %71, !dbg !157
  %73 = load i32, ptr %7, align 4, !dbg !158
  %74 = add nsw i32 %72, %73, !dbg !159
  %75 = sext i32 %74 to i64, !dbg !152
  %76 = getelementptr inbounds float, ptr %67, i64 %75, !dbg !152
  store float %66, ptr %76, align 4, !dbg !160
  br label %77, !dbg !152

77:                                               ; preds = %57
  %78 = load i32, ptr %10, align 4, !dbg !161
  %79 = add nsw i32 %78, 8, !dbg !161
  store i32 %79, ptr %10, align 4, !dbg !161
  br label %54, !dbg !146, !llvm.loop !162

80:                                               ; preds = %54
  ret void, !dbg !164
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local void @early_exit(ptr noundef %0, i32 noundef %1) #2 !dbg !165 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca i32, align 4
  store ptr %0, ptr %3, align 8
  store i32 %1, ptr %4, align 4
  %6 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !166
  store i32 %6, ptr %5, align 4, !dbg !167
  %7 = load i32, ptr %5, align 4, !dbg !168
  %8 = load i32, ptr %4, align 4, !dbg !169
  %9 = icmp uge i32 %7, %8, !dbg !170
  br i1 %9, label %10, label %11, !dbg !168

10:                                               ; preds = %2
  br label %25, !dbg !171

11:                                               ; preds = %2
  %12 = load i32, ptr %5, align 4, !dbg !172
  %13 = zext i32 %12 to i64, !dbg !173
  %14 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10early_exitE1s to ptr), i64 0, i64 %13, !dbg !173
  store float 1.000000e+00, ptr %14, align 4, !dbg !174
  call void @llvm.nvvm.barrier0(), !dbg !175
  %15 = load i32, ptr %5, align 4, !dbg !176
  %16 = add i32 %15, 1, !dbg !177
  %17 = urem i32 %16, 256, !dbg !178
  %18 = zext i32 %17 to i64, !dbg !179
  %19 = getelementptr inbounds [256 x float], ptr addrspacecast (ptr addrspace(3) @_ZZ10early_exitE1s to ptr), i64 0, i64 %18, !dbg !179
  %20 = load float, ptr %19, align 4, !dbg !179
  %21 = load ptr, ptr %3, align 8, !dbg !180
  %22 = load i32, ptr %5, align 4, !dbg !181
  %23 = zext i32 %22 to i64, !dbg !180
  %24 = getelementptr inbounds float, ptr %21, i64 %23, !dbg !180
  store float %20, ptr %24, align 4, !dbg !182
  br label %25, !dbg !183

25:                                               ; preds = %11, %10
  ret void, !dbg !183
}

attributes #0 = { convergent mustprogress noinline nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx42,+sm_80" "uniform-work-group-size"="true" }
attributes #3 = { convergent nocallback nounwind }

!llvm.dbg.cu = !{!0}
!nvvm.annotations = !{!2, !3, !4, !5, !6}
!llvm.module.flags = !{!7, !8, !9, !10, !11}
!llvm.ident = !{!12}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
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
!13 = distinct !DISubprogram(name: "tid", scope: !1, file: !1, line: 6, type: !14, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!14 = !DISubroutineType(types: !15)
!15 = !{}
!16 = !DILocation(line: 6, column: 36, scope: !13)
!17 = !DILocation(line: 6, column: 29, scope: !13)
!18 = distinct !DISubprogram(name: "reduce", scope: !1, file: !1, line: 9, type: !14, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!19 = !DILocation(line: 11, column: 16, scope: !18)
!20 = !DILocation(line: 11, column: 12, scope: !18)
!21 = !DILocation(line: 12, column: 16, scope: !18)
!22 = !DILocation(line: 12, column: 12, scope: !18)
!23 = !DILocation(line: 13, column: 10, scope: !18)
!24 = !DILocation(line: 13, column: 13, scope: !18)
!25 = !DILocation(line: 13, column: 15, scope: !18)
!26 = !DILocation(line: 13, column: 23, scope: !18)
!27 = !DILocation(line: 13, column: 21, scope: !18)
!28 = !DILocation(line: 13, column: 5, scope: !18)
!29 = !DILocation(line: 13, column: 3, scope: !18)
!30 = !DILocation(line: 13, column: 8, scope: !18)
!31 = !DILocation(line: 14, column: 3, scope: !18)
!32 = !DILocation(line: 15, column: 17, scope: !18)
!33 = !DILocation(line: 15, column: 8, scope: !18)
!34 = !DILocation(line: 15, column: 26, scope: !18)
!35 = !DILocation(line: 15, column: 28, scope: !18)
!36 = !DILocation(line: 15, column: 3, scope: !18)
!37 = !DILocation(line: 16, column: 9, scope: !18)
!38 = !DILocation(line: 16, column: 13, scope: !18)
!39 = !DILocation(line: 16, column: 11, scope: !18)
!40 = !DILocation(line: 16, column: 26, scope: !18)
!41 = !DILocation(line: 16, column: 30, scope: !18)
!42 = !DILocation(line: 16, column: 28, scope: !18)
!43 = !DILocation(line: 16, column: 24, scope: !18)
!44 = !DILocation(line: 16, column: 18, scope: !18)
!45 = !DILocation(line: 16, column: 16, scope: !18)
!46 = !DILocation(line: 16, column: 21, scope: !18)
!47 = !DILocation(line: 17, column: 5, scope: !18)
!48 = !DILocation(line: 18, column: 3, scope: !18)
!49 = !DILocation(line: 15, column: 35, scope: !18)
!50 = distinct !{!50, !36, !48, !51}
!51 = !{!"llvm.loop.mustprogress"}
!52 = !DILocation(line: 19, column: 7, scope: !18)
!53 = !DILocation(line: 19, column: 9, scope: !18)
!54 = !DILocation(line: 19, column: 24, scope: !18)
!55 = !DILocation(line: 19, column: 15, scope: !18)
!56 = !DILocation(line: 19, column: 19, scope: !18)
!57 = !DILocation(line: 19, column: 22, scope: !18)
!58 = !DILocation(line: 20, column: 1, scope: !18)
!59 = distinct !DISubprogram(name: "reduce_racy", scope: !1, file: !1, line: 23, type: !14, scopeLine: 23, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!60 = !DILocation(line: 25, column: 16, scope: !59)
!61 = !DILocation(line: 25, column: 12, scope: !59)
!62 = !DILocation(line: 26, column: 16, scope: !59)
!63 = !DILocation(line: 26, column: 12, scope: !59)
!64 = !DILocation(line: 27, column: 10, scope: !59)
!65 = !DILocation(line: 27, column: 13, scope: !59)
!66 = !DILocation(line: 27, column: 15, scope: !59)
!67 = !DILocation(line: 27, column: 23, scope: !59)
!68 = !DILocation(line: 27, column: 21, scope: !59)
!69 = !DILocation(line: 27, column: 5, scope: !59)
!70 = !DILocation(line: 27, column: 3, scope: !59)
!71 = !DILocation(line: 27, column: 8, scope: !59)
!72 = !DILocation(line: 28, column: 3, scope: !59)
!73 = !DILocation(line: 29, column: 17, scope: !59)
!74 = !DILocation(line: 29, column: 8, scope: !59)
!75 = !DILocation(line: 29, column: 26, scope: !59)
!76 = !DILocation(line: 29, column: 28, scope: !59)
!77 = !DILocation(line: 29, column: 3, scope: !59)
!78 = !DILocation(line: 30, column: 9, scope: !59)
!79 = !DILocation(line: 30, column: 13, scope: !59)
!80 = !DILocation(line: 30, column: 11, scope: !59)
!81 = !DILocation(line: 30, column: 26, scope: !59)
!82 = !DILocation(line: 30, column: 30, scope: !59)
!83 = !DILocation(line: 30, column: 28, scope: !59)
!84 = !DILocation(line: 30, column: 24, scope: !59)
!85 = !DILocation(line: 30, column: 18, scope: !59)
!86 = !DILocation(line: 30, column: 16, scope: !59)
!87 = !DILocation(line: 30, column: 21, scope: !59)
!88 = !DILocation(line: 31, column: 3, scope: !59)
!89 = !DILocation(line: 29, column: 35, scope: !59)
!90 = distinct !{!90, !77, !88, !51}
!91 = !DILocation(line: 32, column: 7, scope: !59)
!92 = !DILocation(line: 32, column: 9, scope: !59)
!93 = !DILocation(line: 32, column: 24, scope: !59)
!94 = !DILocation(line: 32, column: 15, scope: !59)
!95 = !DILocation(line: 32, column: 19, scope: !59)
!96 = !DILocation(line: 32, column: 22, scope: !59)
!97 = !DILocation(line: 33, column: 1, scope: !59)
!98 = distinct !DISubprogram(name: "transpose", scope: !1, file: !1, line: 36, type: !14, scopeLine: 36, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!99 = !DILocation(line: 38, column: 11, scope: !98)
!100 = !DILocation(line: 38, column: 42, scope: !98)
!101 = !DILocation(line: 38, column: 49, scope: !98)
!102 = !DILocation(line: 38, column: 47, scope: !98)
!103 = !DILocation(line: 38, column: 7, scope: !98)
!104 = !DILocation(line: 39, column: 11, scope: !98)
!105 = !DILocation(line: 39, column: 42, scope: !98)
!106 = !DILocation(line: 39, column: 49, scope: !98)
!107 = !DILocation(line: 39, column: 47, scope: !98)
!108 = !DILocation(line: 39, column: 7, scope: !98)
!109 = !DILocation(line: 40, column: 12, scope: !98)
!110 = !DILocation(line: 40, column: 8, scope: !98)
!111 = !DILocation(line: 40, column: 19, scope: !98)
!112 = !DILocation(line: 40, column: 21, scope: !98)
!113 = !DILocation(line: 40, column: 3, scope: !98)
!114 = !DILocation(line: 41, column: 76, scope: !98)
!115 = !DILocation(line: 41, column: 80, scope: !98)
!116 = !DILocation(line: 41, column: 84, scope: !98)
!117 = !DILocation(line: 41, column: 82, scope: !98)
!118 = !DILocation(line: 41, column: 89, scope: !98)
!119 = !DILocation(line: 41, column: 87, scope: !98)
!120 = !DILocation(line: 41, column: 93, scope: !98)
!121 = !DILocation(line: 41, column: 91, scope: !98)
!122 = !DILocation(line: 41, column: 10, scope: !98)
!123 = !DILocation(line: 41, column: 41, scope: !98)
!124 = !DILocation(line: 41, column: 39, scope: !98)
!125 = !DILocation(line: 41, column: 5, scope: !98)
!126 = !DILocation(line: 41, column: 44, scope: !98)
!127 = !DILocation(line: 41, column: 74, scope: !98)
!128 = !DILocation(line: 40, column: 29, scope: !98)
!129 = distinct !{!129, !113, !130, !51}
!130 = !DILocation(line: 41, column: 94, scope: !98)
!131 = !DILocation(line: 42, column: 3, scope: !98)
!132 = !DILocation(line: 43, column: 7, scope: !98)
!133 = !DILocation(line: 43, column: 38, scope: !98)
!134 = !DILocation(line: 43, column: 45, scope: !98)
!135 = !DILocation(line: 43, column: 43, scope: !98)
!136 = !DILocation(line: 43, column: 5, scope: !98)
!137 = !DILocation(line: 44, column: 7, scope: !98)
!138 = !DILocation(line: 44, column: 38, scope: !98)
!139 = !DILocation(line: 44, column: 45, scope: !98)
!140 = !DILocation(line: 44, column: 43, scope: !98)
!141 = !DILocation(line: 44, column: 5, scope: !98)
!142 = !DILocation(line: 45, column: 12, scope: !98)
!143 = !DILocation(line: 45, column: 8, scope: !98)
!144 = !DILocation(line: 45, column: 19, scope: !98)
!145 = !DILocation(line: 45, column: 21, scope: !98)
!146 = !DILocation(line: 45, column: 3, scope: !98)
!147 = !DILocation(line: 46, column: 33, scope: !98)
!148 = !DILocation(line: 46, column: 28, scope: !98)
!149 = !DILocation(line: 46, column: 63, scope: !98)
!150 = !DILocation(line: 46, column: 94, scope: !98)
!151 = !DILocation(line: 46, column: 92, scope: !98)
!152 = !DILocation(line: 46, column: 5, scope: !98)
!153 = !DILocation(line: 46, column: 10, scope: !98)
!154 = !DILocation(line: 46, column: 14, scope: !98)
!155 = !DILocation(line: 46, column: 12, scope: !98)
!156 = !DILocation(line: 46, column: 19, scope: !98)
!157 = !DILocation(line: 46, column: 17, scope: !98)
!158 = !DILocation(line: 46, column: 23, scope: !98)
!159 = !DILocation(line: 46, column: 21, scope: !98)
!160 = !DILocation(line: 46, column: 26, scope: !98)
!161 = !DILocation(line: 45, column: 29, scope: !98)
!162 = distinct !{!162, !146, !163, !51}
!163 = !DILocation(line: 46, column: 95, scope: !98)
!164 = !DILocation(line: 47, column: 1, scope: !98)
!165 = distinct !DISubprogram(name: "early_exit", scope: !1, file: !1, line: 50, type: !14, scopeLine: 50, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0)
!166 = !DILocation(line: 52, column: 16, scope: !165)
!167 = !DILocation(line: 52, column: 12, scope: !165)
!168 = !DILocation(line: 53, column: 7, scope: !165)
!169 = !DILocation(line: 53, column: 12, scope: !165)
!170 = !DILocation(line: 53, column: 9, scope: !165)
!171 = !DILocation(line: 53, column: 15, scope: !165)
!172 = !DILocation(line: 54, column: 5, scope: !165)
!173 = !DILocation(line: 54, column: 3, scope: !165)
!174 = !DILocation(line: 54, column: 8, scope: !165)
!175 = !DILocation(line: 55, column: 3, scope: !165)
!176 = !DILocation(line: 56, column: 15, scope: !165)
!177 = !DILocation(line: 56, column: 17, scope: !165)
!178 = !DILocation(line: 56, column: 22, scope: !165)
!179 = !DILocation(line: 56, column: 12, scope: !165)
!180 = !DILocation(line: 56, column: 3, scope: !165)
!181 = !DILocation(line: 56, column: 7, scope: !165)
!182 = !DILocation(line: 56, column: 10, scope: !165)
!183 = !DILocation(line: 57, column: 1, scope: !165)
