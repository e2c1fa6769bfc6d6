package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestClosingQuote(t *testing.T) {
	for _, tc := range []struct {
		in  string
		end int
		esc bool
	}{
		{`"abc",`, 4, false},
		{`""`, 1, false},
		{`"a\"b"`, 5, true},
		{`"a\\"b"`, 4, true},
		{`"a\\\"b"`, 7, true},
		{`"a\nb"x`, 5, true},
		{`"open`, -1, false},
		{`"\\\\"`, 5, true},
	} {
		end, esc := ClosingQuote([]byte(tc.in), 0)
		if end != tc.end || (end >= 0 && esc != tc.esc) {
			t.Errorf("ClosingQuote(%s) = %d, %v; want %d, %v", tc.in, end, esc, tc.end, tc.esc)
		}
	}
}

// TestClosingQuoteBlocks compares the block walk with the byte-wise search on
// lines of 1 to 300 bytes (shorter than a block, and crossing several), made
// of the bytes that matter: quotes, backslashes and others, in runs of every
// length across block edges; where the processor has AVX2, with its
// classifier and without.
func TestClosingQuoteBlocks(t *testing.T) {
	wide := quoteAVX2
	t.Cleanup(func() { quoteAVX2 = wide })
	for _, quoteAVX2 = range []bool{false, wide} {
		closingQuoteBlocks(t)
	}
}

func closingQuoteBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'"', '\\', 'a', '\\', 'n'}
	for n := 0; n < 200000; n++ {
		b := make([]byte, 1+rng.IntN(300))
		b[0] = '"'
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(4) > 0 && b[i] == '"' {
				b[i] = 'x' // mostly long strings
			}
		}
		checkClosing(t, b)
	}
}

// checkClosing compares the two searches from every quote of b: strings
// that start anywhere in a line and end in its last block, or in none.
func checkClosing(t *testing.T, b []byte) {
	t.Helper()
	for open := range b {
		if b[open] != '"' {
			continue
		}
		end, esc := ClosingQuote(b, open)
		wantEnd, wantEsc := closingFrom(b, open, open+1, false)
		if end != wantEnd || (end >= 0 && esc != wantEsc) {
			t.Fatalf("ClosingQuote(%q, %d) = %d, %v; byte-wise %d, %v", b, open, end, esc, wantEnd, wantEsc)
		}
	}
}

func FuzzClosingQuote(f *testing.F) {
	f.Add([]byte(`"` + strings.Repeat(`a\"`, 40) + `"`))
	f.Add([]byte(`"` + strings.Repeat(`\\`, 33) + `"` + strings.Repeat("b", 70)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == '"' {
			checkClosing(t, b)
		}
	})
}
