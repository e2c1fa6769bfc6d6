#include "textflag.h"

// CLASSIFY sets the low 16 bits of reg to the pairs of the 16 bytes at
// off(SI) with the byte after each that the tables do not select: a bit
// is clear where (byte, next byte) is a candidate. c, the second byte of
// each pair, is split in nibbles (X0 low, X2 high), looked up in the
// trigger tables and the two answers ANDed; p, the first, likewise in the
// after tables; a pair is a candidate where both share a class. X8-X11
// hold the tables, X12 sixteen 0x0f, X13 zero.
#define CLASSIFY(off, reg) \
	MOVOU   off+1(SI), X0 \
	MOVOU   off(SI), X1   \
	MOVOU   X0, X2        \
	PSRLW   $4, X2        \
	PAND    X12, X0       \
	PAND    X12, X2       \
	MOVOU   X8, X3        \
	PSHUFB  X0, X3        \
	MOVOU   X9, X4        \
	PSHUFB  X2, X4        \
	PAND    X4, X3        \
	MOVOU   X1, X2        \
	PSRLW   $4, X2        \
	PAND    X12, X1       \
	PAND    X12, X2       \
	MOVOU   X10, X4       \
	PSHUFB  X1, X4        \
	MOVOU   X11, X5       \
	PSHUFB  X2, X5        \
	PAND    X5, X4        \
	PAND    X4, X3        \
	PCMPEQB X13, X3       \
	PMOVMSKB X3, reg

// func pairCandidates(s string, masks []uint64, t *pairTables)
//
// Classifies the pairs of s 64 at a time, each group one word of masks;
// see pairCandidates in pairs_amd64.go for the contract. A last group of
// fewer than 64 pairs is classified as the 64 pairs ending where s ends,
// shifted down past those already written. Registers:
//   SI the group's first byte, R9 pairs left, DI its word of masks
//   CX how many pairs of the group were already covered (its shift)
TEXT ·pairCandidates(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), R9
	DECQ R9
	MOVQ masks_base+16(FP), DI
	MOVQ t+40(FP), AX
	MOVOU 0(AX), X8
	MOVOU 16(AX), X9
	MOVOU 32(AX), X10
	MOVOU 48(AX), X11
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12
	PXOR X13, X13

group:
	XORQ CX, CX
	CMPQ R9, $64
	JAE  classify
	TESTQ R9, R9
	JZ   done
	MOVQ $64, CX
	SUBQ R9, CX
	SUBQ CX, SI
	MOVQ $64, R9

classify:
	CLASSIFY(0, AX)
	CLASSIFY(16, BX)
	CLASSIFY(32, R10)
	CLASSIFY(48, R11)
	SHLQ $16, BX
	SHLQ $32, R10
	SHLQ $48, R11
	ORQ  BX, AX
	ORQ  R11, R10
	ORQ  R10, AX
	NOTQ AX
	SHRQ CX, AX
	MOVQ AX, 0(DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $64, R9
	JMP  group

done:
	RET
