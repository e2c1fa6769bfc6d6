package logs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomBytes is n bytes drawn from alphabet.
func randomBytes(rng *rand.Rand, n int, alphabet string) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return b
}

// TestPairScanMatchesBytewise holds the block kernel to the byte-wise walk
// on random bytes (ASCII letters of both cases, punctuation, bytes above
// 0x7f, and the bytes whose low five bits equal a letter's) at every length
// around the block sizes and every start within a block.
func TestPairScanMatchesBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const alphabet = "qQaA-@`[{\x80\xe1\xc1\x41\x61\x51\x71"
	for round := 0; round < 30000; round++ {
		n := rng.IntN(200)
		a := randomBytes(rng, n, alphabet)
		b := randomBytes(rng, n+rng.IntN(3), alphabet)
		c1, m1 := foldTest("qa-@"[rng.IntN(4)])
		c2, m2 := foldTest("qa-@"[rng.IntN(4)])
		p := pair{c1: c1, m1: m1, c2: c2, m2: m2}
		want := nextPairFrom(a, b[:len(a)], p, 0)
		if got := nextPair(a, b[:len(a)], p); got != want {
			t.Fatalf("nextPair(%q, %q, %+v) = %d, want %d", a, b[:len(a)], p, got, want)
		}
		if !pairBlocks || n < 16 {
			continue
		}
		for _, scan := range pairKernels() {
			at, reached := scan.fn(a, b, c1, m1, c2, m2)
			if reached%16 != 0 || reached > n || (at < 0 && n-reached >= 16) {
				t.Fatalf("%s(len %d) reached %d, at %d", scan.name, n, reached, at)
			}
			if at >= 0 && at != want || at < 0 && want >= 0 && want < reached {
				t.Fatalf("%s(%q, %q, %+v) = %d (reached %d), want %d", scan.name, a, b, p, at, reached, want)
			}
		}
	}
}

// TestIndexFoldASCIIFindsFirst compares indexFoldASCII with lower-casing on
// long lines, where the kernel's blocks and the byte-wise tail both decide,
// for needles of one to forty bytes.
func TestIndexFoldASCIIFindsFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const alphabet = "xyXYqQ-ab \x80"
	for round := 0; round < 20000; round++ {
		l := randomBytes(rng, rng.IntN(300), alphabet)
		n := randomBytes(rng, 1+rng.IntN(40), "xyq-")
		if rng.IntN(3) == 0 && len(l) > len(n) {
			// Plant the needle, in a random case, so that long needles match too.
			at := rng.IntN(len(l) - len(n) + 1)
			for i, c := range n {
				if rng.IntN(2) == 0 {
					c = bytes.ToUpper([]byte{c})[0]
				}
				l[at+i] = c
			}
		}
		want := strings.Index(string(lowerASCII(l)), string(n))
		if got := indexFoldASCII(l, n, pairOf(n)); got != want {
			t.Fatalf("indexFoldASCII(%q, %q) = %d, want %d", l, n, got, want)
		}
	}
}

// TestPairOfPicksTwoRarest: the pair is the needle's rarest byte and the
// rarest at another place, in order of position.
func TestPairOfPicksTwoRarest(t *testing.T) {
	for _, c := range []struct {
		needle string
		p1, p2 int
	}{
		{"xylophone-quasar", 0, 10}, // x and q: the two rarest letters of it
		{"quasar", 0, 1},            // q, then the rarest of the rest: u
		{"e", 0, 0},
		{"exit code", 1, 5}, // x, then c (the rarest after x of e, i, t, c, o, d)
	} {
		p := pairOf([]byte(c.needle))
		if p.p1 != c.p1 || p.p2 != c.p2 {
			t.Errorf("pairOf(%q) = %d, %d; want %d, %d", c.needle, p.p1, p.p2, c.p1, c.p2)
		}
	}
}

// lowerASCII lower-cases the ASCII letters of b alone (strings.ToLower
// would turn a byte above 0x7f into three).
func lowerASCII(b []byte) []byte {
	out := bytes.Clone(b)
	for i, c := range out {
		if c >= 'A' && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return out
}
