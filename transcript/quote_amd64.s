#include "textflag.h"

// func blockScan(b []byte) (end, reached int, saw bool)
//
// Walks b (the inside of a JSON string) 64 bytes at a time; see blockScan in
// quote_amd64.go for the contract. Registers:
//   SI next block, CX bytes left, DI offset of SI in b
//   X8 sixteen '"', X9 sixteen '\'
//   AX quote mask, BX backslash mask of the block
//   R8 carry: 1 when the block's first byte is escaped by a run before it
//   R9 saw: 1 once a backslash has been met
//   R14 0x5555555555555555 (even positions), R15 0xaaaaaaaaaaaaaaaa (odd)
//   DX 1 when the blocks are classified by AVX2 (quoteAVX2): Y8 and Y9
//   then hold thirty-two of each byte, and VZEROUPPER precedes the return
TEXT ·blockScan(SB), NOSPLIT, $0-41
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	XORQ DI, DI
	XORQ R8, R8
	XORQ R9, R9
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X8
	PUNPCKLQDQ X8, X8
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X9
	PUNPCKLQDQ X9, X9
	MOVQ $0x5555555555555555, R14
	MOVQ $0xaaaaaaaaaaaaaaaa, R15
	MOVBQZX ·quoteAVX2(SB), DX
	TESTQ DX, DX
	JZ   block
	VPBROADCASTB X8, Y8
	VPBROADCASTB X9, Y9

block:
	CMPQ CX, $64
	JB   none
	TESTQ DX, DX
	JNZ  wide

	// Classify the block: one bit per byte that is a quote (AX) or a
	// backslash (BX).
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU X0, X4
	MOVOU X1, X5
	MOVOU X2, X6
	MOVOU X3, X7
	PCMPEQB X8, X0
	PCMPEQB X8, X1
	PCMPEQB X8, X2
	PCMPEQB X8, X3
	PCMPEQB X9, X4
	PCMPEQB X9, X5
	PCMPEQB X9, X6
	PCMPEQB X9, X7
	PMOVMSKB X0, AX
	PMOVMSKB X1, R10
	PMOVMSKB X2, R11
	PMOVMSKB X3, R12
	SHLQ $16, R10
	SHLQ $32, R11
	SHLQ $48, R12
	ORQ  R10, AX
	ORQ  R12, R11
	ORQ  R11, AX
	PMOVMSKB X4, BX
	PMOVMSKB X5, R10
	PMOVMSKB X6, R11
	PMOVMSKB X7, R12
	SHLQ $16, R10
	SHLQ $32, R11
	SHLQ $48, R12
	ORQ  R10, BX
	ORQ  R12, R11
	ORQ  R11, BX
	JMP  classified

wide:
	// The same masks from two 32-byte halves.
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPCMPEQB Y8, Y0, Y2
	VPCMPEQB Y8, Y1, Y3
	VPCMPEQB Y9, Y0, Y4
	VPCMPEQB Y9, Y1, Y5
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, R10
	SHLQ $32, R10
	ORQ  R10, AX
	VPMOVMSKB Y4, BX
	VPMOVMSKB Y5, R11
	SHLQ $32, R11
	ORQ  R11, BX

classified:
	// No backslash in or before the block: its first quote closes.
	MOVQ BX, R10
	ORQ  R8, R10
	JNZ  escapes
	TESTQ AX, AX
	JNZ  found
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  block

escapes:
	// In a run of backslashes each escapes the next, so the positions a
	// run escapes alternate from its start: the odd positions after an
	// even start, the even ones after an odd start, up to the byte just
	// past the run. Adding each odd-start run's first bit to the backslash
	// mask carries through that run and lands past it, which flips the
	// parity for exactly those runs; a carry out of bit 63 is an odd-start
	// run still open at the block's end, escaping the next block's first
	// byte.
	MOVQ BX, R13          // R13: the block's backslashes, for saw
	MOVQ R8, R10
	NOTQ R10
	ANDQ R10, BX          // a backslash escaped from before escapes nothing
	MOVQ BX, R11
	SHLQ $1, R11
	ORQ  R8, R11          // R11: follows, the bytes right after a backslash
	MOVQ BX, R12
	ANDQ R15, R12
	MOVQ R11, R10
	NOTQ R10
	ANDQ R10, R12         // R12: runs starting on an odd position
	ADDQ R12, BX          // BX: the sum; CF: carry into the next block
	SETCS R8B
	MOVBQZX R8B, R8
	SHLQ $1, BX
	XORQ R14, BX
	ANDQ R11, BX          // BX: the escaped positions
	NOTQ BX
	ANDQ BX, AX           // AX: quotes not escaped
	JNZ  escapedfound
	MOVQ $1, R9
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  block

escapedfound:
	// saw, if a backslash of the block comes before the closing quote.
	BSFQ AX, AX
	MOVQ AX, CX
	MOVQ $1, R10
	SHLQ CX, R10
	DECQ R10
	TESTQ R13, R10
	JZ   foundat
	MOVQ $1, R9
	JMP  foundat

found:
	BSFQ AX, AX

foundat:
	ADDQ DI, AX
	MOVQ AX, end+24(FP)
	MOVQ DI, reached+32(FP)
	MOVB R9B, saw+40(FP)
	JMP  done

none:
	MOVQ $-1, end+24(FP)
	MOVQ DI, reached+32(FP)
	MOVB R9B, saw+40(FP)

done:
	TESTQ DX, DX
	JZ   ret
	VZEROUPPER

ret:
	RET
