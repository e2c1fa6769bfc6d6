package redact

import (
	"math/bits"
	"math/rand"
	"testing"
)

// pairClassesOf is the classifier of pairTables written plainly: the
// classes a pair (p, c) may trigger.
func pairClassesOf(t *pairTables, p, c byte) byte {
	return t[c&15] & t[16+c>>4] & t[32+p&15] & t[48+p>>4]
}

// pairCandidatesModel is pairCandidates in Go: what the vector code must
// write, bit for bit.
func pairCandidatesModel(s string, masks []uint64, t *pairTables) {
	for w := range (len(s) - 1 + 63) / 64 {
		masks[w] = 0
	}
	for j := 0; j+1 < len(s); j++ {
		if pairClassesOf(t, s[j], s[j+1]) != 0 {
			masks[j/64] |= 1 << (j % 64)
		}
	}
}

// jsonCleanPairs is jsonClean without the classifier: every pair looked up.
func jsonCleanPairs(s string) bool { return rawClean(s, false) }

// TestPairClassesCoverMatchers checks every pair of bytes: the classifier
// marks each pair rawPair selects a matcher for, so the vector loop skips
// none that the plain loop looks at.
func TestPairClassesCoverMatchers(t *testing.T) {
	if len(pairClass) != rtASCIIEscape+1 {
		t.Fatalf("pairClass has %d entries, want one per matcher (%d)", len(pairClass), rtASCIIEscape+1)
	}
	extra := 0
	for p := 0; p < 256; p++ {
		for c := 0; c < 256; c++ {
			got := pairClassesOf(&pairNibbles, byte(p), byte(c))
			if kind := rawPair[p|c<<8]; kind != 0 && got&(1<<pairClass[kind]) == 0 {
				t.Errorf("pair %q%q: matcher %d, classes %08b", byte(p), byte(c), kind, got)
			} else if kind == 0 && got != 0 {
				extra++
			}
		}
	}
	t.Logf("%d pairs marked that select no matcher", extra)
}

// pairRichString returns n bytes drawn mostly from the bytes the
// pre-check's matchers trigger on and follow, so that candidates are dense,
// with any byte now and then.
func pairRichString(r *rand.Rand, n int) string {
	const rich = ":=-BoO_.KSIJeEaA0?`ktixupousrbfmkcGsASyBbdy{}()\"\\ \t]'Cw"
	b := make([]byte, n)
	for i := range b {
		switch r.Intn(8) {
		case 0:
			b[i] = byte(r.Intn(256))
		case 1:
			b[i] = 'a' + byte(r.Intn(26))
		default:
			b[i] = rich[r.Intn(len(rich))]
		}
	}
	return string(b)
}

// checkPairCandidates fails unless jsonClean with the classifier answers as
// the plain loop does on s, the model marks a superset of rawPair's pairs,
// and each vector classifier writes the model's words and no word past them.
func checkPairCandidates(t testing.TB, s string) {
	t.Helper()
	if got, want := jsonClean(s), jsonCleanPairs(s); got != want {
		t.Fatalf("jsonClean(%q) = %v, the plain loop says %v", s, got, want)
	}
	if len(s) < pairBlockMin || len(s) > pairChunk+1 {
		return
	}
	words := (len(s) - 1 + 63) / 64
	want := make([]uint64, words)
	pairCandidatesModel(s, want, &pairNibbles)
	for j := 0; j+1 < len(s); j++ {
		if rawPair[uint16(s[j])|uint16(s[j+1])<<8] != 0 && want[j/64]&(1<<(j%64)) == 0 {
			t.Fatalf("the model misses the pair at %d, %q, of %q", j, s[j:j+2], s)
		}
	}
	const poison = 0x5a5a5a5a5a5a5a5a
	for name, classify := range pairVariants() {
		got := make([]uint64, words+1)
		for k := range got {
			got[k] = poison
		}
		classify(s, got[:words], &pairNibbles)
		if got[words] != poison {
			t.Fatalf("%s classifier (%d bytes) wrote past its %d words", name, len(s), words)
		}
		for w := range want {
			if got[w] != want[w] {
				t.Fatalf("%s classifier (%q): word %d = %064b, want %064b", name, s, w, bits.Reverse64(got[w]), bits.Reverse64(want[w]))
			}
		}
	}
}

func TestPairCandidates(t *testing.T) {
	if len(pairVariants()) == 0 {
		t.Log("no vector classifier here: jsonClean compared with the plain loop, the model with rawPair")
	}
	r := rand.New(rand.NewSource(3))
	for n := 0; n <= 300; n++ {
		for range 20 {
			checkPairCandidates(t, pairRichString(r, n))
		}
	}
	for _, n := range []int{pairChunk - 1, pairChunk, pairChunk + 1, pairChunk + 2, pairChunk + 64, pairChunk + 65,
		2*pairChunk + 1, 2*pairChunk + 66, 3*pairChunk + 100} {
		for range 20 {
			checkPairCandidates(t, pairRichString(r, n))
		}
	}
	// Every byte as each of a pair, at every position of a group.
	for p := 0; p < 256; p++ {
		for c := 0; c < 256; c += 3 {
			b := []byte(pairRichString(r, 70+r.Intn(60)))
			k := r.Intn(len(b) - 1)
			b[k], b[k+1] = byte(p), byte(c)
			checkPairCandidates(t, string(b))
		}
	}
}

func FuzzPairCandidates(f *testing.F) {
	r := rand.New(rand.NewSource(4))
	for _, n := range []int{0, 1, 2, 64, 65, 66, 127, 128, 129, 200, pairChunk + 1, pairChunk + 70} {
		f.Add(pairRichString(r, n))
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkPairCandidates(t, in)
	})
}
