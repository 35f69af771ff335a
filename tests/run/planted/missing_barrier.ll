; Planted bug: each thread writes its slot of shared memory and reads its neighbour's with no
; barrier between (a LOOM program cannot say this: loomc inserts the barrier). The sanitizer
; must report the race, naming both threads and both source lines.
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4

define void @neighbour(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out) !dbg !3 {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !10
  %base = mul i32 %b, 64, !dbg !10
  %g = add i32 %base, %t, !dbg !10
  %g64 = zext i32 %g to i64, !dbg !10
  %src = getelementptr inbounds float, ptr addrspace(1) %in, i64 %g64, !dbg !10
  %v = load float, ptr addrspace(1) %src, align 4, !dbg !10
  %t64 = zext i32 %t to i64, !dbg !11
  %mine = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i64 0, i64 %t64, !dbg !11
  store float %v, ptr addrspace(3) %mine, align 4, !dbg !11
  ; missing: call void @llvm.nvvm.barrier0()
  %n = add i32 %t, 1, !dbg !12
  %n63 = and i32 %n, 63, !dbg !12
  %n64 = zext i32 %n63 to i64, !dbg !12
  %theirs = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i64 0, i64 %n64, !dbg !12
  %w = load float, ptr addrspace(3) %theirs, align 4, !dbg !12
  %dst = getelementptr inbounds float, ptr addrspace(1) %out, i64 %g64, !dbg !13
  store float %w, ptr addrspace(1) %dst, align 4, !dbg !13
  ret void, !dbg !13
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!20, !21}
!20 = !{ptr @neighbour, !"kernel", i32 1}
!21 = !{ptr @neighbour, !"reqntidx", i32 64}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand-written", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "missing_barrier.cu", directory: "tests/run/planted")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "neighbour", scope: !1, file: !1, line: 3, type: !4, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!10 = !DILocation(line: 5, column: 11, scope: !3)
!11 = !DILocation(line: 6, column: 3, scope: !3)
!12 = !DILocation(line: 7, column: 11, scope: !3)
!13 = !DILocation(line: 8, column: 3, scope: !3)
