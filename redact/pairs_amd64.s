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

// CLASSIFY32 is CLASSIFY for the 32 bytes at off(SI), with AVX2: Y8-Y11
// hold the tables in both lanes, Y12 thirty-two 0x0f, Y13 zero.
#define CLASSIFY32(off, reg) \
	VMOVDQU   off+1(SI), Y0  \
	VMOVDQU   off(SI), Y1    \
	VPSRLW    $4, Y0, Y2     \
	VPAND     Y12, Y0, Y0    \
	VPAND     Y12, Y2, Y2    \
	VPSHUFB   Y0, Y8, Y3     \
	VPSHUFB   Y2, Y9, Y4     \
	VPAND     Y4, Y3, Y3     \
	VPSRLW    $4, Y1, Y2     \
	VPAND     Y12, Y1, Y1    \
	VPAND     Y12, Y2, Y2    \
	VPSHUFB   Y1, Y10, Y4    \
	VPSHUFB   Y2, Y11, Y5    \
	VPAND     Y5, Y4, Y4     \
	VPAND     Y4, Y3, Y3     \
	VPCMPEQB  Y13, Y3, Y3    \
	VPMOVMSKB Y3, reg

// func pairClassify(s string, masks []uint64, t *pairTables, avx2 bool)
//
// Classifies the pairs of s 64 at a time, each group one word of masks,
// 16 pairs per vector with SSSE3 or 32 with AVX2; see pairCandidates in
// pairs_amd64.go for the contract. A last group of fewer than 64 pairs is
// classified as the 64 pairs ending where s ends, shifted down past those
// already written. Registers:
//   SI the group's first byte, R9 pairs left, DI its word of masks
//   CX how many pairs of the group were already covered (its shift)
//   R8 avx2
TEXT ·pairClassify(SB), NOSPLIT, $0-49
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), R9
	DECQ R9
	MOVQ masks_base+16(FP), DI
	MOVQ t+40(FP), AX
	MOVBQZX avx2+48(FP), R8
	TESTQ R8, R8
	JNZ  tables32
	MOVOU 0(AX), X8
	MOVOU 16(AX), X9
	MOVOU 32(AX), X10
	MOVOU 48(AX), X11
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12
	PXOR X13, X13
	JMP  group

tables32:
	VBROADCASTI128 0(AX), Y8
	VBROADCASTI128 16(AX), Y9
	VBROADCASTI128 32(AX), Y10
	VBROADCASTI128 48(AX), Y11
	MOVQ $0x0f0f0f0f0f0f0f0f, AX
	MOVQ AX, X12
	VPBROADCASTQ X12, Y12
	VPXOR Y13, Y13, Y13

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
	TESTQ R8, R8
	JNZ  classify32
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
	JMP  store

classify32:
	CLASSIFY32(0, AX)
	CLASSIFY32(32, BX)
	SHLQ $32, BX
	ORQ  BX, AX

store:
	NOTQ AX
	SHRQ CX, AX
	MOVQ AX, 0(DI)
	ADDQ $64, SI
	ADDQ $8, DI
	SUBQ $64, R9
	JMP  group

done:
	TESTQ R8, R8
	JZ   ret
	VZEROUPPER

ret:
	RET
