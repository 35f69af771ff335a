; Races between blocks past 20,000 pairs of accesses to the blocks' own rows: thread 0 of every
; block stores 201 elements of its own row of %rows (`rows[64·b + k]`, 20,301 pairs of stores
; among them), then its block id into %flag[0], which blocks 0 and 1 race on. The pair test
; looks at no more than 20,000 pairs a kernel; the stores into the rows each stay in their
; block's window of 256 bytes, so their pairs are set aside before it without counting against
; that cap, and the race on %flag, last in the order, is still checked (it was missed: the cap
; ran out on the rows first).
; ERROR: data race (write-after-write between blocks) on `%flag` in `k`
; OPTIONS: block-size=64
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) noalias %rows, ptr addrspace(1) noalias %flag) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %store, label %exit
store:
  %row = mul i32 %b, 64
  %i0 = add i32 %row, 0
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i0
  store i32 0, ptr addrspace(1) %p0, align 4
  %i1 = add i32 %row, 1
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i1
  store i32 1, ptr addrspace(1) %p1, align 4
  %i2 = add i32 %row, 2
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i2
  store i32 2, ptr addrspace(1) %p2, align 4
  %i3 = add i32 %row, 3
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i3
  store i32 3, ptr addrspace(1) %p3, align 4
  %i4 = add i32 %row, 4
  %p4 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i4
  store i32 4, ptr addrspace(1) %p4, align 4
  %i5 = add i32 %row, 5
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i5
  store i32 5, ptr addrspace(1) %p5, align 4
  %i6 = add i32 %row, 6
  %p6 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i6
  store i32 6, ptr addrspace(1) %p6, align 4
  %i7 = add i32 %row, 7
  %p7 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i7
  store i32 7, ptr addrspace(1) %p7, align 4
  %i8 = add i32 %row, 8
  %p8 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i8
  store i32 8, ptr addrspace(1) %p8, align 4
  %i9 = add i32 %row, 9
  %p9 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i9
  store i32 9, ptr addrspace(1) %p9, align 4
  %i10 = add i32 %row, 10
  %p10 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i10
  store i32 10, ptr addrspace(1) %p10, align 4
  %i11 = add i32 %row, 11
  %p11 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i11
  store i32 11, ptr addrspace(1) %p11, align 4
  %i12 = add i32 %row, 12
  %p12 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i12
  store i32 12, ptr addrspace(1) %p12, align 4
  %i13 = add i32 %row, 13
  %p13 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i13
  store i32 13, ptr addrspace(1) %p13, align 4
  %i14 = add i32 %row, 14
  %p14 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i14
  store i32 14, ptr addrspace(1) %p14, align 4
  %i15 = add i32 %row, 15
  %p15 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i15
  store i32 15, ptr addrspace(1) %p15, align 4
  %i16 = add i32 %row, 16
  %p16 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i16
  store i32 16, ptr addrspace(1) %p16, align 4
  %i17 = add i32 %row, 17
  %p17 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i17
  store i32 17, ptr addrspace(1) %p17, align 4
  %i18 = add i32 %row, 18
  %p18 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i18
  store i32 18, ptr addrspace(1) %p18, align 4
  %i19 = add i32 %row, 19
  %p19 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i19
  store i32 19, ptr addrspace(1) %p19, align 4
  %i20 = add i32 %row, 20
  %p20 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i20
  store i32 20, ptr addrspace(1) %p20, align 4
  %i21 = add i32 %row, 21
  %p21 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i21
  store i32 21, ptr addrspace(1) %p21, align 4
  %i22 = add i32 %row, 22
  %p22 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i22
  store i32 22, ptr addrspace(1) %p22, align 4
  %i23 = add i32 %row, 23
  %p23 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i23
  store i32 23, ptr addrspace(1) %p23, align 4
  %i24 = add i32 %row, 24
  %p24 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i24
  store i32 24, ptr addrspace(1) %p24, align 4
  %i25 = add i32 %row, 25
  %p25 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i25
  store i32 25, ptr addrspace(1) %p25, align 4
  %i26 = add i32 %row, 26
  %p26 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i26
  store i32 26, ptr addrspace(1) %p26, align 4
  %i27 = add i32 %row, 27
  %p27 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i27
  store i32 27, ptr addrspace(1) %p27, align 4
  %i28 = add i32 %row, 28
  %p28 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i28
  store i32 28, ptr addrspace(1) %p28, align 4
  %i29 = add i32 %row, 29
  %p29 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i29
  store i32 29, ptr addrspace(1) %p29, align 4
  %i30 = add i32 %row, 30
  %p30 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i30
  store i32 30, ptr addrspace(1) %p30, align 4
  %i31 = add i32 %row, 31
  %p31 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i31
  store i32 31, ptr addrspace(1) %p31, align 4
  %i32 = add i32 %row, 32
  %p32 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i32
  store i32 32, ptr addrspace(1) %p32, align 4
  %i33 = add i32 %row, 33
  %p33 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i33
  store i32 33, ptr addrspace(1) %p33, align 4
  %i34 = add i32 %row, 34
  %p34 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i34
  store i32 34, ptr addrspace(1) %p34, align 4
  %i35 = add i32 %row, 35
  %p35 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i35
  store i32 35, ptr addrspace(1) %p35, align 4
  %i36 = add i32 %row, 36
  %p36 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i36
  store i32 36, ptr addrspace(1) %p36, align 4
  %i37 = add i32 %row, 37
  %p37 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i37
  store i32 37, ptr addrspace(1) %p37, align 4
  %i38 = add i32 %row, 38
  %p38 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i38
  store i32 38, ptr addrspace(1) %p38, align 4
  %i39 = add i32 %row, 39
  %p39 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i39
  store i32 39, ptr addrspace(1) %p39, align 4
  %i40 = add i32 %row, 40
  %p40 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i40
  store i32 40, ptr addrspace(1) %p40, align 4
  %i41 = add i32 %row, 41
  %p41 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i41
  store i32 41, ptr addrspace(1) %p41, align 4
  %i42 = add i32 %row, 42
  %p42 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i42
  store i32 42, ptr addrspace(1) %p42, align 4
  %i43 = add i32 %row, 43
  %p43 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i43
  store i32 43, ptr addrspace(1) %p43, align 4
  %i44 = add i32 %row, 44
  %p44 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i44
  store i32 44, ptr addrspace(1) %p44, align 4
  %i45 = add i32 %row, 45
  %p45 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i45
  store i32 45, ptr addrspace(1) %p45, align 4
  %i46 = add i32 %row, 46
  %p46 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i46
  store i32 46, ptr addrspace(1) %p46, align 4
  %i47 = add i32 %row, 47
  %p47 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i47
  store i32 47, ptr addrspace(1) %p47, align 4
  %i48 = add i32 %row, 48
  %p48 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i48
  store i32 48, ptr addrspace(1) %p48, align 4
  %i49 = add i32 %row, 49
  %p49 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i49
  store i32 49, ptr addrspace(1) %p49, align 4
  %i50 = add i32 %row, 50
  %p50 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i50
  store i32 50, ptr addrspace(1) %p50, align 4
  %i51 = add i32 %row, 51
  %p51 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i51
  store i32 51, ptr addrspace(1) %p51, align 4
  %i52 = add i32 %row, 52
  %p52 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i52
  store i32 52, ptr addrspace(1) %p52, align 4
  %i53 = add i32 %row, 53
  %p53 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i53
  store i32 53, ptr addrspace(1) %p53, align 4
  %i54 = add i32 %row, 54
  %p54 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i54
  store i32 54, ptr addrspace(1) %p54, align 4
  %i55 = add i32 %row, 55
  %p55 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i55
  store i32 55, ptr addrspace(1) %p55, align 4
  %i56 = add i32 %row, 56
  %p56 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i56
  store i32 56, ptr addrspace(1) %p56, align 4
  %i57 = add i32 %row, 57
  %p57 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i57
  store i32 57, ptr addrspace(1) %p57, align 4
  %i58 = add i32 %row, 58
  %p58 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i58
  store i32 58, ptr addrspace(1) %p58, align 4
  %i59 = add i32 %row, 59
  %p59 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i59
  store i32 59, ptr addrspace(1) %p59, align 4
  %i60 = add i32 %row, 60
  %p60 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i60
  store i32 60, ptr addrspace(1) %p60, align 4
  %i61 = add i32 %row, 61
  %p61 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i61
  store i32 61, ptr addrspace(1) %p61, align 4
  %i62 = add i32 %row, 62
  %p62 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i62
  store i32 62, ptr addrspace(1) %p62, align 4
  %i63 = add i32 %row, 63
  %p63 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i63
  store i32 63, ptr addrspace(1) %p63, align 4
  %i64 = add i32 %row, 0
  %p64 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i64
  store i32 64, ptr addrspace(1) %p64, align 4
  %i65 = add i32 %row, 1
  %p65 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i65
  store i32 65, ptr addrspace(1) %p65, align 4
  %i66 = add i32 %row, 2
  %p66 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i66
  store i32 66, ptr addrspace(1) %p66, align 4
  %i67 = add i32 %row, 3
  %p67 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i67
  store i32 67, ptr addrspace(1) %p67, align 4
  %i68 = add i32 %row, 4
  %p68 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i68
  store i32 68, ptr addrspace(1) %p68, align 4
  %i69 = add i32 %row, 5
  %p69 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i69
  store i32 69, ptr addrspace(1) %p69, align 4
  %i70 = add i32 %row, 6
  %p70 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i70
  store i32 70, ptr addrspace(1) %p70, align 4
  %i71 = add i32 %row, 7
  %p71 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i71
  store i32 71, ptr addrspace(1) %p71, align 4
  %i72 = add i32 %row, 8
  %p72 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i72
  store i32 72, ptr addrspace(1) %p72, align 4
  %i73 = add i32 %row, 9
  %p73 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i73
  store i32 73, ptr addrspace(1) %p73, align 4
  %i74 = add i32 %row, 10
  %p74 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i74
  store i32 74, ptr addrspace(1) %p74, align 4
  %i75 = add i32 %row, 11
  %p75 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i75
  store i32 75, ptr addrspace(1) %p75, align 4
  %i76 = add i32 %row, 12
  %p76 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i76
  store i32 76, ptr addrspace(1) %p76, align 4
  %i77 = add i32 %row, 13
  %p77 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i77
  store i32 77, ptr addrspace(1) %p77, align 4
  %i78 = add i32 %row, 14
  %p78 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i78
  store i32 78, ptr addrspace(1) %p78, align 4
  %i79 = add i32 %row, 15
  %p79 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i79
  store i32 79, ptr addrspace(1) %p79, align 4
  %i80 = add i32 %row, 16
  %p80 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i80
  store i32 80, ptr addrspace(1) %p80, align 4
  %i81 = add i32 %row, 17
  %p81 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i81
  store i32 81, ptr addrspace(1) %p81, align 4
  %i82 = add i32 %row, 18
  %p82 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i82
  store i32 82, ptr addrspace(1) %p82, align 4
  %i83 = add i32 %row, 19
  %p83 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i83
  store i32 83, ptr addrspace(1) %p83, align 4
  %i84 = add i32 %row, 20
  %p84 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i84
  store i32 84, ptr addrspace(1) %p84, align 4
  %i85 = add i32 %row, 21
  %p85 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i85
  store i32 85, ptr addrspace(1) %p85, align 4
  %i86 = add i32 %row, 22
  %p86 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i86
  store i32 86, ptr addrspace(1) %p86, align 4
  %i87 = add i32 %row, 23
  %p87 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i87
  store i32 87, ptr addrspace(1) %p87, align 4
  %i88 = add i32 %row, 24
  %p88 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i88
  store i32 88, ptr addrspace(1) %p88, align 4
  %i89 = add i32 %row, 25
  %p89 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i89
  store i32 89, ptr addrspace(1) %p89, align 4
  %i90 = add i32 %row, 26
  %p90 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i90
  store i32 90, ptr addrspace(1) %p90, align 4
  %i91 = add i32 %row, 27
  %p91 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i91
  store i32 91, ptr addrspace(1) %p91, align 4
  %i92 = add i32 %row, 28
  %p92 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i92
  store i32 92, ptr addrspace(1) %p92, align 4
  %i93 = add i32 %row, 29
  %p93 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i93
  store i32 93, ptr addrspace(1) %p93, align 4
  %i94 = add i32 %row, 30
  %p94 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i94
  store i32 94, ptr addrspace(1) %p94, align 4
  %i95 = add i32 %row, 31
  %p95 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i95
  store i32 95, ptr addrspace(1) %p95, align 4
  %i96 = add i32 %row, 32
  %p96 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i96
  store i32 96, ptr addrspace(1) %p96, align 4
  %i97 = add i32 %row, 33
  %p97 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i97
  store i32 97, ptr addrspace(1) %p97, align 4
  %i98 = add i32 %row, 34
  %p98 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i98
  store i32 98, ptr addrspace(1) %p98, align 4
  %i99 = add i32 %row, 35
  %p99 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i99
  store i32 99, ptr addrspace(1) %p99, align 4
  %i100 = add i32 %row, 36
  %p100 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i100
  store i32 100, ptr addrspace(1) %p100, align 4
  %i101 = add i32 %row, 37
  %p101 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i101
  store i32 101, ptr addrspace(1) %p101, align 4
  %i102 = add i32 %row, 38
  %p102 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i102
  store i32 102, ptr addrspace(1) %p102, align 4
  %i103 = add i32 %row, 39
  %p103 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i103
  store i32 103, ptr addrspace(1) %p103, align 4
  %i104 = add i32 %row, 40
  %p104 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i104
  store i32 104, ptr addrspace(1) %p104, align 4
  %i105 = add i32 %row, 41
  %p105 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i105
  store i32 105, ptr addrspace(1) %p105, align 4
  %i106 = add i32 %row, 42
  %p106 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i106
  store i32 106, ptr addrspace(1) %p106, align 4
  %i107 = add i32 %row, 43
  %p107 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i107
  store i32 107, ptr addrspace(1) %p107, align 4
  %i108 = add i32 %row, 44
  %p108 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i108
  store i32 108, ptr addrspace(1) %p108, align 4
  %i109 = add i32 %row, 45
  %p109 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i109
  store i32 109, ptr addrspace(1) %p109, align 4
  %i110 = add i32 %row, 46
  %p110 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i110
  store i32 110, ptr addrspace(1) %p110, align 4
  %i111 = add i32 %row, 47
  %p111 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i111
  store i32 111, ptr addrspace(1) %p111, align 4
  %i112 = add i32 %row, 48
  %p112 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i112
  store i32 112, ptr addrspace(1) %p112, align 4
  %i113 = add i32 %row, 49
  %p113 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i113
  store i32 113, ptr addrspace(1) %p113, align 4
  %i114 = add i32 %row, 50
  %p114 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i114
  store i32 114, ptr addrspace(1) %p114, align 4
  %i115 = add i32 %row, 51
  %p115 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i115
  store i32 115, ptr addrspace(1) %p115, align 4
  %i116 = add i32 %row, 52
  %p116 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i116
  store i32 116, ptr addrspace(1) %p116, align 4
  %i117 = add i32 %row, 53
  %p117 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i117
  store i32 117, ptr addrspace(1) %p117, align 4
  %i118 = add i32 %row, 54
  %p118 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i118
  store i32 118, ptr addrspace(1) %p118, align 4
  %i119 = add i32 %row, 55
  %p119 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i119
  store i32 119, ptr addrspace(1) %p119, align 4
  %i120 = add i32 %row, 56
  %p120 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i120
  store i32 120, ptr addrspace(1) %p120, align 4
  %i121 = add i32 %row, 57
  %p121 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i121
  store i32 121, ptr addrspace(1) %p121, align 4
  %i122 = add i32 %row, 58
  %p122 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i122
  store i32 122, ptr addrspace(1) %p122, align 4
  %i123 = add i32 %row, 59
  %p123 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i123
  store i32 123, ptr addrspace(1) %p123, align 4
  %i124 = add i32 %row, 60
  %p124 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i124
  store i32 124, ptr addrspace(1) %p124, align 4
  %i125 = add i32 %row, 61
  %p125 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i125
  store i32 125, ptr addrspace(1) %p125, align 4
  %i126 = add i32 %row, 62
  %p126 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i126
  store i32 126, ptr addrspace(1) %p126, align 4
  %i127 = add i32 %row, 63
  %p127 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i127
  store i32 127, ptr addrspace(1) %p127, align 4
  %i128 = add i32 %row, 0
  %p128 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i128
  store i32 128, ptr addrspace(1) %p128, align 4
  %i129 = add i32 %row, 1
  %p129 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i129
  store i32 129, ptr addrspace(1) %p129, align 4
  %i130 = add i32 %row, 2
  %p130 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i130
  store i32 130, ptr addrspace(1) %p130, align 4
  %i131 = add i32 %row, 3
  %p131 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i131
  store i32 131, ptr addrspace(1) %p131, align 4
  %i132 = add i32 %row, 4
  %p132 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i132
  store i32 132, ptr addrspace(1) %p132, align 4
  %i133 = add i32 %row, 5
  %p133 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i133
  store i32 133, ptr addrspace(1) %p133, align 4
  %i134 = add i32 %row, 6
  %p134 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i134
  store i32 134, ptr addrspace(1) %p134, align 4
  %i135 = add i32 %row, 7
  %p135 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i135
  store i32 135, ptr addrspace(1) %p135, align 4
  %i136 = add i32 %row, 8
  %p136 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i136
  store i32 136, ptr addrspace(1) %p136, align 4
  %i137 = add i32 %row, 9
  %p137 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i137
  store i32 137, ptr addrspace(1) %p137, align 4
  %i138 = add i32 %row, 10
  %p138 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i138
  store i32 138, ptr addrspace(1) %p138, align 4
  %i139 = add i32 %row, 11
  %p139 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i139
  store i32 139, ptr addrspace(1) %p139, align 4
  %i140 = add i32 %row, 12
  %p140 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i140
  store i32 140, ptr addrspace(1) %p140, align 4
  %i141 = add i32 %row, 13
  %p141 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i141
  store i32 141, ptr addrspace(1) %p141, align 4
  %i142 = add i32 %row, 14
  %p142 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i142
  store i32 142, ptr addrspace(1) %p142, align 4
  %i143 = add i32 %row, 15
  %p143 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i143
  store i32 143, ptr addrspace(1) %p143, align 4
  %i144 = add i32 %row, 16
  %p144 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i144
  store i32 144, ptr addrspace(1) %p144, align 4
  %i145 = add i32 %row, 17
  %p145 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i145
  store i32 145, ptr addrspace(1) %p145, align 4
  %i146 = add i32 %row, 18
  %p146 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i146
  store i32 146, ptr addrspace(1) %p146, align 4
  %i147 = add i32 %row, 19
  %p147 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i147
  store i32 147, ptr addrspace(1) %p147, align 4
  %i148 = add i32 %row, 20
  %p148 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i148
  store i32 148, ptr addrspace(1) %p148, align 4
  %i149 = add i32 %row, 21
  %p149 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i149
  store i32 149, ptr addrspace(1) %p149, align 4
  %i150 = add i32 %row, 22
  %p150 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i150
  store i32 150, ptr addrspace(1) %p150, align 4
  %i151 = add i32 %row, 23
  %p151 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i151
  store i32 151, ptr addrspace(1) %p151, align 4
  %i152 = add i32 %row, 24
  %p152 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i152
  store i32 152, ptr addrspace(1) %p152, align 4
  %i153 = add i32 %row, 25
  %p153 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i153
  store i32 153, ptr addrspace(1) %p153, align 4
  %i154 = add i32 %row, 26
  %p154 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i154
  store i32 154, ptr addrspace(1) %p154, align 4
  %i155 = add i32 %row, 27
  %p155 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i155
  store i32 155, ptr addrspace(1) %p155, align 4
  %i156 = add i32 %row, 28
  %p156 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i156
  store i32 156, ptr addrspace(1) %p156, align 4
  %i157 = add i32 %row, 29
  %p157 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i157
  store i32 157, ptr addrspace(1) %p157, align 4
  %i158 = add i32 %row, 30
  %p158 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i158
  store i32 158, ptr addrspace(1) %p158, align 4
  %i159 = add i32 %row, 31
  %p159 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i159
  store i32 159, ptr addrspace(1) %p159, align 4
  %i160 = add i32 %row, 32
  %p160 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i160
  store i32 160, ptr addrspace(1) %p160, align 4
  %i161 = add i32 %row, 33
  %p161 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i161
  store i32 161, ptr addrspace(1) %p161, align 4
  %i162 = add i32 %row, 34
  %p162 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i162
  store i32 162, ptr addrspace(1) %p162, align 4
  %i163 = add i32 %row, 35
  %p163 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i163
  store i32 163, ptr addrspace(1) %p163, align 4
  %i164 = add i32 %row, 36
  %p164 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i164
  store i32 164, ptr addrspace(1) %p164, align 4
  %i165 = add i32 %row, 37
  %p165 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i165
  store i32 165, ptr addrspace(1) %p165, align 4
  %i166 = add i32 %row, 38
  %p166 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i166
  store i32 166, ptr addrspace(1) %p166, align 4
  %i167 = add i32 %row, 39
  %p167 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i167
  store i32 167, ptr addrspace(1) %p167, align 4
  %i168 = add i32 %row, 40
  %p168 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i168
  store i32 168, ptr addrspace(1) %p168, align 4
  %i169 = add i32 %row, 41
  %p169 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i169
  store i32 169, ptr addrspace(1) %p169, align 4
  %i170 = add i32 %row, 42
  %p170 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i170
  store i32 170, ptr addrspace(1) %p170, align 4
  %i171 = add i32 %row, 43
  %p171 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i171
  store i32 171, ptr addrspace(1) %p171, align 4
  %i172 = add i32 %row, 44
  %p172 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i172
  store i32 172, ptr addrspace(1) %p172, align 4
  %i173 = add i32 %row, 45
  %p173 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i173
  store i32 173, ptr addrspace(1) %p173, align 4
  %i174 = add i32 %row, 46
  %p174 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i174
  store i32 174, ptr addrspace(1) %p174, align 4
  %i175 = add i32 %row, 47
  %p175 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i175
  store i32 175, ptr addrspace(1) %p175, align 4
  %i176 = add i32 %row, 48
  %p176 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i176
  store i32 176, ptr addrspace(1) %p176, align 4
  %i177 = add i32 %row, 49
  %p177 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i177
  store i32 177, ptr addrspace(1) %p177, align 4
  %i178 = add i32 %row, 50
  %p178 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i178
  store i32 178, ptr addrspace(1) %p178, align 4
  %i179 = add i32 %row, 51
  %p179 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i179
  store i32 179, ptr addrspace(1) %p179, align 4
  %i180 = add i32 %row, 52
  %p180 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i180
  store i32 180, ptr addrspace(1) %p180, align 4
  %i181 = add i32 %row, 53
  %p181 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i181
  store i32 181, ptr addrspace(1) %p181, align 4
  %i182 = add i32 %row, 54
  %p182 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i182
  store i32 182, ptr addrspace(1) %p182, align 4
  %i183 = add i32 %row, 55
  %p183 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i183
  store i32 183, ptr addrspace(1) %p183, align 4
  %i184 = add i32 %row, 56
  %p184 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i184
  store i32 184, ptr addrspace(1) %p184, align 4
  %i185 = add i32 %row, 57
  %p185 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i185
  store i32 185, ptr addrspace(1) %p185, align 4
  %i186 = add i32 %row, 58
  %p186 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i186
  store i32 186, ptr addrspace(1) %p186, align 4
  %i187 = add i32 %row, 59
  %p187 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i187
  store i32 187, ptr addrspace(1) %p187, align 4
  %i188 = add i32 %row, 60
  %p188 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i188
  store i32 188, ptr addrspace(1) %p188, align 4
  %i189 = add i32 %row, 61
  %p189 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i189
  store i32 189, ptr addrspace(1) %p189, align 4
  %i190 = add i32 %row, 62
  %p190 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i190
  store i32 190, ptr addrspace(1) %p190, align 4
  %i191 = add i32 %row, 63
  %p191 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i191
  store i32 191, ptr addrspace(1) %p191, align 4
  %i192 = add i32 %row, 0
  %p192 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i192
  store i32 192, ptr addrspace(1) %p192, align 4
  %i193 = add i32 %row, 1
  %p193 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i193
  store i32 193, ptr addrspace(1) %p193, align 4
  %i194 = add i32 %row, 2
  %p194 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i194
  store i32 194, ptr addrspace(1) %p194, align 4
  %i195 = add i32 %row, 3
  %p195 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i195
  store i32 195, ptr addrspace(1) %p195, align 4
  %i196 = add i32 %row, 4
  %p196 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i196
  store i32 196, ptr addrspace(1) %p196, align 4
  %i197 = add i32 %row, 5
  %p197 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i197
  store i32 197, ptr addrspace(1) %p197, align 4
  %i198 = add i32 %row, 6
  %p198 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i198
  store i32 198, ptr addrspace(1) %p198, align 4
  %i199 = add i32 %row, 7
  %p199 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i199
  store i32 199, ptr addrspace(1) %p199, align 4
  %i200 = add i32 %row, 8
  %p200 = getelementptr inbounds i32, ptr addrspace(1) %rows, i32 %i200
  store i32 200, ptr addrspace(1) %p200, align 4
  store i32 %b, ptr addrspace(1) %flag, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1, !"reqntidx", i32 64}
