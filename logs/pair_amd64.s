#include "textflag.h"

// BROADCAST fills the 16 bytes of X with the byte at arg (R10 holding
// 0x0101010101010101).
#define BROADCAST(arg, X) \
	MOVBQZX arg, AX; \
	IMULQ R10, AX; \
	MOVQ AX, X; \
	PUNPCKLQDQ X, X

// func pairScan(a, b []byte, c1, m1, c2, m2 byte) (at, reached int)
//
// See pairScan in pair_amd64.go. Registers:
//   SI a, R8 b, DI offset, CX bytes of a left
//   X10 sixteen c1, X11 sixteen m1, X12 sixteen c2, X13 sixteen m2
TEXT ·pairScan(SB), NOSPLIT, $0-72
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
