#include "textflag.h"

// BROADCAST fills the 16 bytes of X with the byte at arg (R10 holding
// 0x0101010101010101).
#define BROADCAST(arg, X) \
	MOVBQZX arg, AX; \
	IMULQ R10, AX; \
	MOVQ AX, X; \
	PUNPCKLQDQ X, X

// func pairScanSSE2(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)
//
// See pairScan in pair_amd64.go. Registers:
//   SI a, R8 b, DI offset, CX bytes of a left
//   X10 sixteen c1, X11 sixteen m1, X12 sixteen c2, X13 sixteen m2
TEXT ·pairScanSSE2(SB), NOSPLIT, $0-72
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), R8
	XORQ DI, DI
	MOVQ $0x0101010101010101, R10

	BROADCAST(c1+48(FP), X10)
	BROADCAST(m1+49(FP), X11)
	BROADCAST(c2+50(FP), X12)
	BROADCAST(m2+51(FP), X13)

loop32:
	CMPQ CX, $32
	JB   loop16
	MOVOU 0(SI)(DI*1), X0
	MOVOU 16(SI)(DI*1), X1
	MOVOU 0(R8)(DI*1), X2
	MOVOU 16(R8)(DI*1), X3
	POR  X11, X0
	POR  X11, X1
	POR  X13, X2
	POR  X13, X3
	PCMPEQB X10, X0
	PCMPEQB X10, X1
	PCMPEQB X12, X2
	PCMPEQB X12, X3
	PAND X2, X0
	PAND X3, X1
	PMOVMSKB X0, AX
	PMOVMSKB X1, BX
	SHLQ $16, BX
	ORQ  BX, AX
	JNZ  found
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  loop32

loop16:
	CMPQ CX, $16
	JB   none
	MOVOU 0(SI)(DI*1), X0
	MOVOU 0(R8)(DI*1), X2
	POR  X11, X0
	POR  X13, X2
	PCMPEQB X10, X0
	PCMPEQB X12, X2
	PAND X2, X0
	PMOVMSKB X0, AX
	TESTQ AX, AX
	JNZ  found
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  loop16

found:
	BSFQ AX, AX
	ADDQ DI, AX
	MOVQ AX, at+56(FP)
	MOVQ DI, reached+64(FP)
	RET

none:
	MOVQ $-1, at+56(FP)
	MOVQ DI, reached+64(FP)
	RET

// func pairScanAVX2(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)
//
// pairScanSSE2's walk 64 bytes at a time with AVX2, over whole blocks of 64.
TEXT ·pairScanAVX2(SB), NOSPLIT, $0-72
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), R8
	XORQ DI, DI
	VPBROADCASTB c1+48(FP), Y10
	VPBROADCASTB m1+49(FP), Y11
	VPBROADCASTB c2+50(FP), Y12
	VPBROADCASTB m2+51(FP), Y13

avxloop:
	CMPQ CX, $64
	JB   avxdone
	VMOVDQU 0(SI)(DI*1), Y0
	VMOVDQU 32(SI)(DI*1), Y1
	VMOVDQU 0(R8)(DI*1), Y2
	VMOVDQU 32(R8)(DI*1), Y3
	VPOR    Y11, Y0, Y0
	VPOR    Y11, Y1, Y1
	VPOR    Y13, Y2, Y2
	VPOR    Y13, Y3, Y3
	VPCMPEQB Y10, Y0, Y0
	VPCMPEQB Y10, Y1, Y1
	VPCMPEQB Y12, Y2, Y2
	VPCMPEQB Y12, Y3, Y3
	VPAND   Y2, Y0, Y0
	VPAND   Y3, Y1, Y1
	VPMOVMSKB Y0, AX
	VPMOVMSKB Y1, BX
	SHLQ $32, BX
	ORQ  BX, AX
	JNZ  avxfound
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  avxloop

avxfound:
	VZEROUPPER
	BSFQ AX, AX
	ADDQ DI, AX
	MOVQ AX, at+56(FP)
	MOVQ DI, reached+64(FP)
	RET

avxdone:
	VZEROUPPER
	MOVQ $-1, at+56(FP)
	MOVQ DI, reached+64(FP)
	RET
