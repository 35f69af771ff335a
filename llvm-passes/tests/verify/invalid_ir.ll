; Parses, but LLVM's verifier rejects it: a block without a terminator... (the parser would reject
; that), so instead a use that does not dominate its definition.
; FINDING: invalid LLVM IR
target triple = "nvptx64-nvidia-cuda"

define void @k(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = add i32 1, 2
  br label %b
b:
  %y = add i32 %x, 1
  ret void
}
