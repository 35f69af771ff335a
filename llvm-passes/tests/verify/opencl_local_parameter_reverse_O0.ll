; clang 19 -O0 output of OpenCL C (`clang-19 -x cl -target nvptx64-nvidia-cuda -cl-std=CL1.2
; -Xclang -finclude-default-header`), 64 work-items a group:
;     __kernel void reverse(__global float *out, __global const float *in, __local float *tmp) {
;       size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
;       tmp[l] = in[g];
;       barrier(CLK_LOCAL_MEM_FENCE);
;       out[g] = tmp[n - 1 - l];
;     }
;     (reverse_racy: the same without the barrier)
; The `__local` parameter is a shared buffer of its own (it was once a shared access the
; verifier could not place), and the work-item functions and `barrier`, external calls without
; libclc, are given their NVVM meaning (tid, ctaid * ntid + tid, ntid, barrier0) in the
; verifier's copy. reverse is race-free; reverse_racy reads tmp[63 - l] before thread 63 of the
; group has written it.
; ERROR: data race (read-after-write) on `argument 2` in `reverse_racy`
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent noinline norecurse nounwind optnone
define dso_local spir_kernel void @reverse(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  %9 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(3) %2, ptr %6, align 8
  %10 = call i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %10, ptr %7, align 8
  %11 = call i64 @_Z13get_global_idj(i32 noundef 0) #3
  store i64 %11, ptr %8, align 8
  %12 = call i64 @_Z14get_local_sizej(i32 noundef 0) #3
  store i64 %12, ptr %9, align 8
  %13 = load ptr addrspace(1), ptr %5, align 8
  %14 = load i64, ptr %8, align 8
  %15 = getelementptr inbounds float, ptr addrspace(1) %13, i64 %14
  %16 = load float, ptr addrspace(1) %15, align 4
  %17 = load ptr addrspace(3), ptr %6, align 8
  %18 = load i64, ptr %7, align 8
  %19 = getelementptr inbounds float, ptr addrspace(3) %17, i64 %18
  store float %16, ptr addrspace(3) %19, align 4
  call void @_Z7barrierj(i32 noundef 1) #4
  %20 = load ptr addrspace(3), ptr %6, align 8
  %21 = load i64, ptr %9, align 8
  %22 = sub i64 %21, 1
  %23 = load i64, ptr %7, align 8
  %24 = sub i64 %22, %23
  %25 = getelementptr inbounds float, ptr addrspace(3) %20, i64 %24
  %26 = load float, ptr addrspace(3) %25, align 4
  %27 = load ptr addrspace(1), ptr %4, align 8
  %28 = load i64, ptr %8, align 8
  %29 = getelementptr inbounds float, ptr addrspace(1) %27, i64 %28
  store float %26, ptr addrspace(1) %29, align 4
  ret void
}

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local i64 @_Z12get_local_idj(i32 noundef) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local i64 @_Z13get_global_idj(i32 noundef) #1

; Function Attrs: convergent nounwind willreturn memory(none)
declare dso_local i64 @_Z14get_local_sizej(i32 noundef) #1

; Function Attrs: convergent nounwind
declare dso_local void @_Z7barrierj(i32 noundef) #2

; Function Attrs: convergent noinline norecurse nounwind optnone
define dso_local spir_kernel void @reverse_racy(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1, ptr addrspace(3) noundef align 4 %2) #0 !kernel_arg_addr_space !6 !kernel_arg_access_qual !7 !kernel_arg_type !8 !kernel_arg_base_type !8 !kernel_arg_type_qual !9 {
  %4 = alloca ptr addrspace(1), align 8
  %5 = alloca ptr addrspace(1), align 8
  %6 = alloca ptr addrspace(3), align 8
  %7 = alloca i64, align 8
  %8 = alloca i64, align 8
  %9 = alloca i64, align 8
  store ptr addrspace(1) %0, ptr %4, align 8
  store ptr addrspace(1) %1, ptr %5, align 8
  store ptr addrspace(3) %2, ptr %6, align 8
  %10 = call i64 @_Z12get_local_idj(i32 noundef 0) #3
  store i64 %10, ptr %7, align 8
  %11 = call i64 @_Z13get_global_idj(i32 noundef 0) #3
  store i64 %11, ptr %8, align 8
  %12 = call i64 @_Z14get_local_sizej(i32 noundef 0) #3
  store i64 %12, ptr %9, align 8
  %13 = load ptr addrspace(1), ptr %5, align 8
  %14 = load i64, ptr %8, align 8
  %15 = getelementptr inbounds float, ptr addrspace(1) %13, i64 %14
  %16 = load float, ptr addrspace(1) %15, align 4
  %17 = load ptr addrspace(3), ptr %6, align 8
  %18 = load i64, ptr %7, align 8
  %19 = getelementptr inbounds float, ptr addrspace(3) %17, i64 %18
  store float %16, ptr addrspace(3) %19, align 4
  %20 = load ptr addrspace(3), ptr %6, align 8
  %21 = load i64, ptr %9, align 8
  %22 = sub i64 %21, 1
  %23 = load i64, ptr %7, align 8
  %24 = sub i64 %22, %23
  %25 = getelementptr inbounds float, ptr addrspace(3) %20, i64 %24
  %26 = load float, ptr addrspace(3) %25, align 4
  %27 = load ptr addrspace(1), ptr %4, align 8
  %28 = load i64, ptr %8, align 8
  %29 = getelementptr inbounds float, ptr addrspace(1) %27, i64 %28
  store float %26, ptr addrspace(1) %29, align 4
  ret void
}

attributes #0 = { convergent noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" "uniform-work-group-size"="true" }
attributes #1 = { convergent nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-features"="+ptx42" }
attributes #3 = { convergent nounwind willreturn memory(none) }
attributes #4 = { convergent nounwind }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2, !3}
!opencl.ocl.version = !{!4}
!llvm.ident = !{!5}

!0 = !{ptr @reverse, !"kernel", i32 1}
!1 = !{ptr @reverse_racy, !"kernel", i32 1}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{i32 1, i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{i32 1, i32 1, i32 3}
!7 = !{!"none", !"none", !"none"}
!8 = !{!"float*", !"float*", !"float*"}
!9 = !{!"", !"const", !""}
