package redact

import (
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// sameAsFind fails unless FindReader over in, read in irregular pieces,
// reports exactly what Find(in) returns.
func sameAsFind(t testing.TB, in string) {
	t.Helper()
	var got []Finding
	if err := FindReader(iotest.HalfReader(strings.NewReader(in)), func(f Finding) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	want := Find(in)
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("input of %d bytes: finding %d = %+v, want %+v (%d and %d findings)", len(in), i, got[i], want[i], len(got), len(want))
			}
		}
		t.Fatalf("input of %d bytes: %d findings, want %d", len(in), len(got), len(want))
	}
}

// withPiece scans with pieces of n bytes for the test's duration.
func withPiece(t testing.TB, n int) {
	old := streamPiece
	streamPiece = n
	t.Cleanup(func() { streamPiece = old })
}

func TestFindReaderMatchesFind(t *testing.T) {
	prose := proseCorpus(64 << 10)
	var planted strings.Builder
	for i, tc := range truePositives() {
		planted.WriteString(prose[:1000+i*37])
		planted.WriteString(" " + tc.in + "\n")
	}
	longPEM := "-----BEGIN PRIVATE KEY-----\n" + strings.Repeat(fill(64, 5)+"\n", 1600) + "-----END PRIVATE KEY-----"
	longJWT := jwtToken[:strings.Index(jwtToken, ".")+1] + fill(60000, 6) + "." + fill(43, 7)
	hostile := strings.Repeat("token:", 20000) + strings.Repeat("sk-", 30000) + strings.Repeat("eyJ", 30000)
	var corpus strings.Builder
	corpusLines(t, func(line string) { corpus.WriteString(line + "\n") })
	cases := map[string]string{
		"planted":   strings.Repeat(planted.String(), 4),
		"long pem":  prose + longPEM + prose + longPEM,
		"long jwt":  prose + " id=" + longJWT + " " + prose + "Bearer " + longJWT,
		"hostile":   hostile + prose + hostile,
		"corpus":    corpus.String(),
		"tiny":      githubClassic,
		"empty":     "",
		"one piece": prose[:5000] + " " + npmToken,
	}
	for _, piece := range []int{1 << 20, 4093, 333} {
		withPiece(t, piece)
		for name, in := range cases {
			t.Run(name, func(t *testing.T) { sameAsFind(t, in) })
		}
	}
}

func TestFindReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("GH_TOKEN="+githubClassic+"\n"), iotest.ErrReader(boom))
	if err := FindReader(r, func(Finding) {}); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

// FuzzFindReader repeats its input past streamAhead and scans it in small
// pieces, so that candidates cross piece boundaries.
func FuzzFindReader(f *testing.F) {
	for _, tc := range truePositives() {
		f.Add(tc.in + " ")
	}
	for _, fp := range falsePositives() {
		f.Add(fp.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if in == "" {
			return
		}
		withPiece(t, 1000+len(in)%3000)
		sameAsFind(t, strings.Repeat(in, 1+(streamAhead+4096)/len(in)))
	})
}

// TestMatcherReach checks the bounds FindReader relies on, at every byte
// of inputs with long and overlapping candidates: the matchers of a
// trigger find the same candidates in the text cut streamBehind bytes
// before it and streamAhead bytes after, and none starts more than
// candidateLead bytes before it.
func TestMatcherReach(t *testing.T) {
	longPEM := "-----BEGIN PRIVATE KEY-----\n" + strings.Repeat(fill(64, 5)+"\n", 2100) + "-----END PRIVATE KEY-----"
	longJWT := jwtToken[:strings.Index(jwtToken, ".")+1] + fill(65536, 6) + "." + fill(8192, 7) + "." + fill(65536, 8) + "." + fill(65536, 9)
	var planted strings.Builder
	for _, tc := range truePositives() {
		planted.WriteString(tc.in + " x" + strings.Repeat(" ", len(tc.in)%9) + "\\n" + tc.in + "\n")
	}
	for k := 70; k <= 81; k++ {
		name := "secret" + strings.Repeat("x", k-6)
		planted.WriteString(" \\n" + name + `\"    ` + ": " + genericValue + "\n" + name + "]?=" + genericValue + " ")
	}
	for _, in := range []string{planted.String(), "pem: " + longPEM + " ", "t=" + longJWT + " ", "Bearer " + longJWT,
		strings.Repeat("sk-", 300) + strings.Repeat("token:", 300) + strings.Repeat("a://", 300)} {
		for i := 0; i < len(in); i++ {
			if !trigger[in[i]] {
				continue
			}
			whole := scanner{s: in}
			whole.runRange(i, i+1)
			from, to := max(0, i-streamBehind), min(len(in), i+streamAhead)
			cut := scanner{s: in[from:to]}
			cut.runRange(i-from, i-from+1)
			for k := range cut.cands {
				cut.cands[k].start += from
				cut.cands[k].end += from
			}
			if !reflect.DeepEqual(whole.cands, cut.cands) {
				t.Fatalf("at %d (%q): %+v in the whole text, %+v in the cut one", i, in[i], whole.cands, cut.cands)
			}
			for _, c := range whole.cands {
				if c.start < i-candidateLead {
					t.Fatalf("at %d: a candidate starts at %d", i, c.start)
				}
			}
		}
	}
}

// TestFindReaderMemory scans 64 MB with a finding at the start: what it
// allocates stays near one piece and its lookahead, not the stream.
func TestFindReaderMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB")
	}
	prose := proseCorpus(1 << 20)
	r := io.MultiReader(strings.NewReader("GH_TOKEN="+githubClassic+"\n"), &repeatReader{s: prose, n: 64})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	if err := FindReader(r, func(Finding) { n++ }); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; n != 1 || alloc > 8<<20 {
		t.Fatalf("%d findings, %d bytes allocated", n, alloc)
	}
}

// repeatReader yields s n times.
type repeatReader struct {
	s   string
	n   int
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.s[r.off:])
	if r.off += k; r.off == len(r.s) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}
