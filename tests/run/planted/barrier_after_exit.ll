; Planted bug: threads past the first warp return before the barrier the first warp waits at
; (CUDA: `if (threadIdx.x >= 32) return; __syncthreads();`). An exited thread does not hold a
; barrier up on the GPU, so the run completes; the sanitizer must report the barrier and a
; thread that never reaches it.
target triple = "nvptx64-nvidia-cuda"

define void @early(ptr addrspace(1) noalias %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %high = icmp uge i32 %t, 32, !dbg !10
  br i1 %high, label %leave, label %stay, !dbg !10

leave:
  ret void, !dbg !10

stay:
  call void @llvm.nvvm.barrier0(), !dbg !11
  %t64 = zext i32 %t to i64, !dbg !12
  %dst = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64, !dbg !12
  store i32 %t, ptr addrspace(1) %dst, align 4, !dbg !12
  ret void, !dbg !12
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!20, !21}
!20 = !{ptr @early, !"kernel", i32 1}
!21 = !{ptr @early, !"reqntidx", i32 64}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "barrier_after_exit.cu", directory: "tests/run/planted")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "early", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!10 = !DILocation(line: 4, column: 3, scope: !3)
!11 = !DILocation(line: 5, column: 3, scope: !3)
!12 = !DILocation(line: 6, column: 3, scope: !3)
