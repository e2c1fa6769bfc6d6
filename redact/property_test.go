package redact

import (
	"math/rand"
	"strings"
	"testing"
)

// pseudoRandom returns n deterministic bytes.
func pseudoRandom(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

// noise returns random surrounding text: words, punctuation, JSON-ish
// fragments, non-ASCII and invalid UTF-8.
func noise(r *rand.Rand, n int) string {
	pieces := []string{"the", "file", "go", "test", "=", ":", "\"", "'", "{", "}", "(", ")", ",", ".",
		"-", "_", "/", "\\n", "é", "\xff", "中文", "Bearer", "http://", "@", "token", "id", "42",
		"A", "S", "J", "B", "b", "sk", "x"}
	var b strings.Builder
	for b.Len() < n {
		if r.Intn(4) == 0 {
			b.WriteByte(byte(r.Intn(256)))
		} else {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
	}
	return b.String()
}

// TestPropertySecretNeverSurvives embeds known secrets, in their true
// positive contexts, at random places in random text: neither the secret
// nor its middle 8 bytes may survive String.
func TestPropertySecretNeverSurvives(t *testing.T) {
	cases := truePositives()
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 3000; trial++ {
		var b strings.Builder
		var planted []string
		for k := 0; k < 1+r.Intn(3); k++ {
			tc := cases[r.Intn(len(cases))]
			b.WriteString(noise(r, r.Intn(200)))
			b.WriteString([]string{" ", "\n", "\t", "\r\n"}[r.Intn(4)])
			b.WriteString(tc.in)
			b.WriteString([]string{" ", "\n", "\t", "\r\n"}[r.Intn(4)])
			planted = append(planted, tc.secrets...)
		}
		b.WriteString(noise(r, r.Intn(200)))
		in := b.String()
		out := String(in)
		for _, sec := range planted {
			if len(sec) < minRepeat {
				continue
			}
			mid := sec[(len(sec)-8)/2:][:8]
			if strings.Contains(out, sec) || strings.Contains(out, mid) {
				t.Fatalf("trial %d: %q (or its middle %q) survived\n in: %q\nout: %q", trial, sec, mid, in, out)
			}
		}
	}
}

func FuzzString(f *testing.F) {
	for _, tc := range truePositives() {
		f.Add(tc.in)
	}
	f.Add("")
	f.Add("password: \"\" max_tokens: 4096 token_count=12345")
	f.Add("postgres://u:p@ss@h:5432/db https://github.com/x")
	f.Add("-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END")
	f.Add("\xff\xfe=:\"'\\")
	f.Fuzz(func(t *testing.T, in string) {
		fs := Find(in)
		for i, fd := range fs {
			if fd.Start < 0 || fd.End > len(in) || fd.Start >= fd.End || in[fd.Start:fd.End] != fd.Secret {
				t.Fatalf("bad span %+v", fd)
			}
			if i > 0 && fd.Start < fs[i-1].End {
				t.Fatalf("findings %d and %d overlap", i-1, i)
			}
		}
		out := String(in)
		if len(fs) == 0 && out != in {
			t.Fatalf("nothing found but String changed the input")
		}
		for _, fd := range fs {
			if len(fd.Secret) >= minRepeat && strings.Contains(out, fd.Secret) {
				t.Fatalf("secret %q (%s) survived in %q", fd.Secret, fd.Rule, out)
			}
		}
	})
}
