; Planted bug: the first half of the block waits at one barrier, the second half at another
; (CUDA: `if (threadIdx.x < 32) __syncthreads(); else __syncthreads();`). The hardware counts
; arrivals, so the run completes; the sanitizer must report the two barriers and two threads.
target triple = "nvptx64-nvidia-cuda"

define void @halves(ptr addrspace(1) noalias %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %low = icmp ult i32 %t, 32, !dbg !10
  br i1 %low, label %first, label %second, !dbg !10

first:
  call void @llvm.nvvm.barrier0(), !dbg !11
  br label %done, !dbg !11

second:
  call void @llvm.nvvm.barrier0(), !dbg !12
  br label %done, !dbg !12

done:
  %t64 = zext i32 %t to i64, !dbg !13
  %dst = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64, !dbg !13
  store i32 %t, ptr addrspace(1) %dst, align 4, !dbg !13
  ret void, !dbg !13
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!20, !21}
!20 = !{ptr @halves, !"kernel", i32 1}
!21 = !{ptr @halves, !"reqntidx", i32 64}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "divergent_barrier.cu", directory: "tests/run/planted")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "halves", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!10 = !DILocation(line: 4, column: 7, scope: !3)
!11 = !DILocation(line: 4, column: 30, scope: !3)
!12 = !DILocation(line: 4, column: 53, scope: !3)
!13 = !DILocation(line: 5, column: 3, scope: !3)
