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

// QUOTE_MASKS_SSE2 sets AX and BX to the bits of the quotes and of the
// backslashes among the 64 bytes at R11 (bit 0 for the first), X8 and X9
// holding sixteen of each; it uses X0-X7, R10, R11 and R13.
#define QUOTE_MASKS_SSE2 \
	MOVOU 0(R11), X0; MOVOU 16(R11), X1; MOVOU 32(R11), X2; MOVOU 48(R11), X3; \
	MOVOU X0, X4; MOVOU X1, X5; MOVOU X2, X6; MOVOU X3, X7; \
	PCMPEQB X8, X0; PCMPEQB X8, X1; PCMPEQB X8, X2; PCMPEQB X8, X3; \
	PCMPEQB X9, X4; PCMPEQB X9, X5; PCMPEQB X9, X6; PCMPEQB X9, X7; \
	PMOVMSKB X0, AX; PMOVMSKB X1, R10; PMOVMSKB X2, R11; PMOVMSKB X3, R13; \
	SHLQ $16, R10; SHLQ $32, R11; SHLQ $48, R13; \
	ORQ R10, AX; ORQ R13, R11; ORQ R11, AX; \
	PMOVMSKB X4, BX; PMOVMSKB X5, R10; PMOVMSKB X6, R11; PMOVMSKB X7, R13; \
	SHLQ $16, R10; SHLQ $32, R11; SHLQ $48, R13; \
	ORQ R10, BX; ORQ R13, R11; ORQ R11, BX

// QUOTE_MASKS_AVX2 is QUOTE_MASKS_SSE2 with two 32-byte compares per byte
// kind, Y8 and Y9 holding thirty-two of each; it uses Y0-Y5, R10 and R11.
#define QUOTE_MASKS_AVX2 \
	VMOVDQU 0(R11), Y0; VMOVDQU 32(R11), Y1; \
	VPCMPEQB Y8, Y0, Y2; VPCMPEQB Y8, Y1, Y3; \
	VPCMPEQB Y9, Y0, Y4; VPCMPEQB Y9, Y1, Y5; \
	VPMOVMSKB Y2, AX; VPMOVMSKB Y3, R10; SHLQ $32, R10; ORQ R10, AX; \
	VPMOVMSKB Y4, BX; VPMOVMSKB Y5, R11; SHLQ $32, R11; ORQ R11, BX

// ESCAPED_POSITIONS turns BX, a block's backslash bits, into the bits of
// the bytes a backslash escapes, R8 being 1 when the block's first byte is
// escaped by a run before it, and sets R8 for the next block; it uses R10,
// R11 (the bytes right after a backslash) and R12 (the runs that start on
// an odd position). A backslash escaped from before escapes nothing.
//
// In a run of backslashes each escapes the next, so the positions a run
// escapes alternate from its start: the odd positions after an even
// start, the even ones after an odd start, up to the byte just past the
// run. Adding each odd-start run's first bit to the backslash mask
// carries through that run and lands past it, which flips the parity for
// exactly those runs; a carry out of bit 63 is an odd-start run still
// open at the block's end, escaping the next block's first byte.
#define ESCAPED_POSITIONS \
	MOVQ R8, R10; NOTQ R10; ANDQ R10, BX; \
	MOVQ BX, R11; SHLQ $1, R11; ORQ R8, R11; \
	MOVQ BX, R12; ANDQ quoteConsts<>+64(SB), R12; \
	MOVQ R11, R10; NOTQ R10; ANDQ R10, R12; \
	ADDQ R12, BX; SETCS R8B; MOVBQZX R8B, R8; \
	SHLQ $1, BX; XORQ quoteConsts<>+72(SB), BX; ANDQ R11, BX

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
	QUOTE_MASKS_SSE2
	JMP  classified

wide:
	// The same masks from two 32-byte halves.
	QUOTE_MASKS_AVX2

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
	MOVQ BX, R13          // R13: the block's backslashes, for saw
	ESCAPED_POSITIONS
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

// QUOTE_PUT writes the offset of AX's lowest quote (DI + its bit) as
// entry DX + off/4 of dst (R11), and clears that bit: with AX zero, an
// offset past the block, which is never read.
#define QUOTE_PUT(off) \
	TZCNTQ AX, CX             \
	LEAQ   (DI)(CX*1), BX     \
	MOVL   BX, off(R11)(DX*4) \
	BLSRQ  AX, AX

// func quoteIndex(b []byte, from int, state uint64, dst []uint32) (n int, next int, after uint64)
//
// Writes to dst, from its first element, the offset of every quote of b at
// or after from that no backslash escapes, bit 31 set when a backslash
// stands between it and the quote before it written (or the start of the
// walk); see QuoteIndex in quoteindex.go. b is 64 bytes or longer and from
// a multiple of 64; the walk goes 64 bytes at a time, the last bytes as
// the block that ends b (as quoteScan's), and stops before a block when
// dst has room for fewer than 64 more: n is how many it wrote, next where
// it stopped (len(b) at the end), after the state to go on from. state:
// bit 0 when the byte at from is escaped by a run before it, bit 1 when a
// backslash came after the last quote written.
//
// Which quotes have a backslash before them, for a whole block at once:
// in the block's bits, the bytes that are not quotes plus the backslashes
// (and the one before the block, as a carry) carry into the quote that
// ends each stretch holding a backslash, and into no other quote; a carry
// out of the block is a backslash after its last quote. Registers:
//   SI b, DI the offset of the block's first byte to look at, DX n
//   X8, X9 (Y8, Y9) sixteen (thirty-two) quotes and backslashes
//   AX quote mask, BX backslash mask of the block, bit 0 for offset DI
//   R8 the escape carry (state bit 0), R9 saw (state bit 1)
//   R13 the block's backslashes as read, R10 the quotes after a backslash
//   R11 R12 CX scratch; dst_cap+56(FP) is made the most n may be before a
//   block (cap(dst) - 64), from+24(FP) the last offset of a whole block.
TEXT ·quoteIndex(SB), NOSPLIT, $0-88
	MOVQ b_base+0(FP), SI
	MOVQ from+24(FP), DI
	MOVQ state+32(FP), R8
	MOVQ R8, R9
	ANDQ $1, R8
	SHRQ $1, R9
	ANDQ $1, R9
	XORQ DX, DX
	SUBQ $64, dst_cap+56(FP)
	MOVQ b_len+8(FP), R10
	SUBQ $64, R10
	MOVQ R10, from+24(FP) // from+24(FP): the last offset a whole block starts at
	CMPB ·quoteAVX2(SB), $0
	JNE  iwideconsts
	MOVOU quoteConsts<>+0(SB), X8
	MOVOU quoteConsts<>+32(SB), X9
	JMP  iblock

iwideconsts:
	VMOVDQU quoteConsts<>+0(SB), Y8
	VMOVDQU quoteConsts<>+32(SB), Y9

iblock:
	CMPQ DI, from+24(FP)
	JG   ilast            // fewer than 64 bytes left
	CMPQ DX, dst_cap+56(FP)
	JG   iout             // no room for a block's quotes: stop here
	LEAQ (SI)(DI*1), R11
	CMPB ·quoteAVX2(SB), $0
	JNE  iwide
	QUOTE_MASKS_SSE2
	JMP  imasks

ilast:
	// The block that ends b, its bits for bytes walked before shifted out.
	MOVQ b_len+8(FP), R12
	SUBQ DI, R12
	JLE  iend
	CMPQ DX, dst_cap+56(FP)
	JG   iout
	MOVQ b_len+8(FP), R11
	LEAQ -64(SI)(R11*1), R11
	CMPB ·quoteAVX2(SB), $0
	JNE  ilastwide
	QUOTE_MASKS_SSE2
	JMP  ilastshift

ilastwide:
	QUOTE_MASKS_AVX2

ilastshift:
	MOVQ $64, CX
	SUBQ R12, CX
	SHRQ CX, AX
	SHRQ CX, BX
	JMP  imasks

iwide:
	QUOTE_MASKS_AVX2

imasks:
	MOVQ BX, R13          // R13: the block's backslashes
	MOVQ BX, R10
	ORQ  R8, R10
	JZ   iquotes          // no backslash in or before the block: no quote escaped
	// The escaped positions, as quoteScan finds them.
	ESCAPED_POSITIONS
	NOTQ BX
	ANDQ BX, AX           // AX: quotes not escaped

iquotes:
	// R10: the quotes after a backslash; R9: saw, for the next block.
	MOVQ AX, R10
	NOTQ R10
	BTQ  $0, R9
	ADCQ R13, R10
	SETCS R9B
	MOVBQZX R9B, R9
	ANDQ AX, R10
	TESTQ AX, AX
	JZ   inext
	MOVQ dst_base+40(FP), R11
	CMPB ·quoteBatch(SB), $0
	JE   iquote
	// Eight quotes a turn, up to the next multiple of eight after the
	// block's: the room for 64 holds the extra, which the next block or
	// no one reads. R12: n after the block, R13 the block's quotes.
	POPCNTQ AX, R12
	ADDQ DX, R12
	MOVQ AX, R13

iput8:
	QUOTE_PUT(0)
	QUOTE_PUT(4)
	QUOTE_PUT(8)
	QUOTE_PUT(12)
	QUOTE_PUT(16)
	QUOTE_PUT(20)
	QUOTE_PUT(24)
	QUOTE_PUT(28)
	ADDQ $8, DX
	CMPQ DX, R12
	JB   iput8
	MOVQ R12, DX
	TESTQ R10, R10
	JZ   inext

iflag:
	// A quote after a backslash is entry n - (the block's quotes at or
	// after it).
	TZCNTQ R10, CX
	MOVQ R13, BX
	SHRQ CX, BX
	POPCNTQ BX, BX
	MOVQ DX, CX
	SUBQ BX, CX
	ORL  $0x80000000, (R11)(CX*4)
	BLSRQ R10, R10
	JNZ  iflag
	JMP  inext

iquote:
	BSFQ AX, CX
	LEAQ (DI)(CX*1), BX
	BTQ  CX, R10
	JCC  iput
	ORL  $0x80000000, BX

iput:
	MOVL BX, (R11)(DX*4)
	INCQ DX
	LEAQ -1(AX), CX
	ANDQ CX, AX
	JNZ  iquote

inext:
	ADDQ $64, DI
	JMP  iblock

iend:
	MOVQ b_len+8(FP), DI

iout:
	MOVQ DX, n+64(FP)
	MOVQ DI, next+72(FP)
	SHLQ $1, R9
	ORQ  R9, R8
	MOVQ R8, after+80(FP)
	CMPB ·quoteAVX2(SB), $0
	JE   iret
	VZEROUPPER

iret:
	RET
