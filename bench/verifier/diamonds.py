#!/usr/bin/env python3
"""Writes a kernel of N uniform `if` diamonds, each arm with a barrier and a shared store, to
standard output: `if (n > i) { s[tid] = i; barrier } else { barrier; s[tid] = i; }`. Every branch is
on a parameter, so every barrier is uniform and every interval small; the verifier's work should
grow about linearly with N."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 800
out = [
    'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
    'target triple = "nvptx64-nvidia-cuda"',
    "@s = internal addrspace(3) global [257 x i32] undef, align 4",
    "define void @k(i32 %n) {",
    "entry:",
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    "  %t1 = add i32 %t, 1",
    "  %p = getelementptr inbounds [257 x i32], ptr addrspace(3) @s, i32 0, i32 %t",
    "  %q = getelementptr inbounds [257 x i32], ptr addrspace(3) @s, i32 0, i32 %t1",
    "  call void @llvm.nvvm.barrier0()",
    "  br label %d0",
]
for i in range(n):
    out += [
        f"d{i}:",
        f"  %c{i} = icmp sgt i32 %n, {i}",
        f"  br i1 %c{i}, label %a{i}, label %b{i}",
        f"a{i}:",
        f"  store i32 {i}, ptr addrspace(3) %p, align 4",
        "  call void @llvm.nvvm.barrier0()",
        f"  br label %d{i + 1}",
        f"b{i}:",
        f"  call void @llvm.nvvm.barrier0()",
        f"  store i32 {i}, ptr addrspace(3) %p, align 4",
        f"  br label %d{i + 1}",
    ]
out += [
    f"d{n}:",
    "  ret void",
    "}",
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
    "declare void @llvm.nvvm.barrier0()",
    "!nvvm.annotations = !{!0}",
    '!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 256}',
]
print("\n".join(out))
