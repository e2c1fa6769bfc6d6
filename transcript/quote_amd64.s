#include "textflag.h"

// func quoteScan(b []byte, from int) (end int, saw bool)
//
// Finds the first quote of b at or after from that no backslash escapes,
// b[from-1] being the quote that opens the string; see quoteScan in
// quote_amd64.go for the contract. A line of 64 bytes or more is walked 64
// bytes at a time; its last bytes, fewer than a block, are read as the block
// that ends the line, its bits for the bytes already walked shifted out. A
// shorter line is searched byte by byte. Registers:
//   SI b, CX len(b), DI the offset of the block's first byte to look at
//   X8 sixteen '"', X9 sixteen '\' (Y8, Y9: thirty-two, with AVX2)
//      and the escape arithmetic's bit patterns, read from quoteConsts
//   DX 1 when the blocks are classified by AVX2 (quoteAVX2); VZEROUPPER
//      then precedes the return
//   AX quote mask, BX backslash mask of the block, bit 0 for offset DI
//   R8 carry: 1 when the block's first byte is escaped by a run before it
//   R9 saw: 1 once a backslash has been met
//   R11 the address the block is read from, R12 how many of its first
//      bytes were walked before (0 but for the last block)
//
// quoteConsts: thirty-two quotes, thirty-two backslashes, the odd positions'
// bits (0xaa..) and the even ones' (0x55..).
DATA quoteConsts<>+0(SB)/8, $0x2222222222222222
DATA quoteConsts<>+8(SB)/8, $0x2222222222222222
DATA quoteConsts<>+16(SB)/8, $0x2222222222222222
DATA quoteConsts<>+24(SB)/8, $0x2222222222222222
DATA quoteConsts<>+32(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA quoteConsts<>+40(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA quoteConsts<>+48(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA quoteConsts<>+56(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA quoteConsts<>+64(SB)/8, $0xaaaaaaaaaaaaaaaa
DATA quoteConsts<>+72(SB)/8, $0x5555555555555555
GLOBL quoteConsts<>(SB), RODATA|NOPTR, $80

TEXT ·quoteScan(SB), NOSPLIT, $0-41
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	MOVQ from+24(FP), DI
	XORQ R8, R8
	XORQ R9, R9
	XORQ DX, DX
	CMPQ CX, $64
	JB   bytewise
	MOVBQZX ·quoteAVX2(SB), DX
	TESTQ DX, DX
	JNZ  wideconsts
	MOVOU quoteConsts<>+0(SB), X8
	MOVOU quoteConsts<>+32(SB), X9
	JMP  block

wideconsts:
	VMOVDQU quoteConsts<>+0(SB), Y8
	VMOVDQU quoteConsts<>+32(SB), Y9

block:
	MOVQ CX, R10
	SUBQ DI, R10          // R10: the bytes left, none or fewer than 0 past the end
	CMPQ R10, $64
	JL   last
	LEAQ (SI)(DI*1), R11
	XORQ R12, R12
	JMP  classify

last:
	TESTQ R10, R10
	JLE  none
	LEAQ -64(SI)(CX*1), R11
	MOVQ $64, R12
	SUBQ R10, R12

classify:
	// One bit per byte that is a quote (AX) or a backslash (BX).
	TESTQ DX, DX
	JNZ  wide
	MOVOU 0(R11), X0
	MOVOU 16(R11), X1
	MOVOU 32(R11), X2
	MOVOU 48(R11), X3
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
	PMOVMSKB X3, R13
	SHLQ $16, R10
	SHLQ $32, R11
	SHLQ $48, R13
	ORQ  R10, AX
	ORQ  R13, R11
	ORQ  R11, AX
	PMOVMSKB X4, BX
	PMOVMSKB X5, R10
	PMOVMSKB X6, R11
	PMOVMSKB X7, R13
	SHLQ $16, R10
	SHLQ $32, R11
	SHLQ $48, R13
	ORQ  R10, BX
	ORQ  R13, R11
	ORQ  R11, BX
	JMP  classified

wide:
	// The same masks from two 32-byte halves.
	VMOVDQU 0(R11), Y0
	VMOVDQU 32(R11), Y1
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
	// The last block's bits for bytes walked before go.
	TESTQ R12, R12
	JZ   masks
	MOVQ CX, R13
	MOVQ R12, CX
	SHRQ CX, AX
	SHRQ CX, BX
	MOVQ R13, CX

masks:
	// No backslash in or before the block: its first quote closes.
	MOVQ BX, R10
	ORQ  R8, R10
	JNZ  escapes
	TESTQ AX, AX
	JNZ  found
	ADDQ $64, DI
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
	ANDQ quoteConsts<>+64(SB), R12
	MOVQ R11, R10
	NOTQ R10
	ANDQ R10, R12         // R12: runs starting on an odd position
	ADDQ R12, BX          // BX: the sum; CF: carry into the next block
	SETCS R8B
	MOVBQZX R8B, R8
	SHLQ $1, BX
	XORQ quoteConsts<>+72(SB), BX
	ANDQ R11, BX          // BX: the escaped positions
	NOTQ BX
	ANDQ BX, AX           // AX: quotes not escaped
	JNZ  escapedfound
	MOVQ $1, R9
	ADDQ $64, DI
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
	MOVQ AX, end+32(FP)
	MOVB R9B, saw+40(FP)
	JMP  done

none:
	MOVQ $-1, end+32(FP)
	MOVB R9B, saw+40(FP)

done:
	TESTQ DX, DX
	JZ   ret
	VZEROUPPER

ret:
	RET

bytewise:
	// A line shorter than a block: a backslash escapes the byte after it.
	CMPQ DI, CX
	JAE  none
	MOVBLZX (SI)(DI*1), AX
	CMPB AL, $0x5c
	JEQ  backslash
	CMPB AL, $0x22
	JEQ  bytefound
	INCQ DI
	JMP  bytewise

backslash:
	MOVQ $1, R9
	ADDQ $2, DI
	JMP  bytewise

bytefound:
	MOVQ DI, end+32(FP)
	MOVB R9B, saw+40(FP)
	RET
