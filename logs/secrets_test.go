package logs

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/agent-activity/agent-activity/redact"
)

func findText(r io.Reader, visit func(SecretMatch)) error {
	return redact.FindReader(r, func(f redact.Finding) { visit(SecretMatch{Rule: f.Rule, Secret: f.Secret}) })
}

// spillWant is what a scan of a spilled output reports, computed the
// straightforward way: the whole text at once, each distinct secret at the
// line where its text first occurs.
func spillWant(text string) []SecretFinding {
	var out []SecretFinding
	seen := map[string]bool{}
	for _, f := range redact.Find(text) {
		if !seen[f.Secret] {
			seen[f.Secret] = true
			line := 1 + strings.Count(text[:max(0, strings.Index(text, f.Secret))], "\n")
			out = append(out, SecretFinding{Rule: f.Rule, Line: line, Secret: f.Secret})
		}
	}
	return out
}

// TestScanSpillMatchesWholeText streams spilled outputs larger than a read,
// with secrets across the reads' boundaries, a PEM block over several
// lines, repeats, and a secret whose text first occurs where no rule sees
// it.
func TestScanSpillMatchesWholeText(t *testing.T) {
	pat := "ghp_" + strings.Repeat("a1B2", 9)
	value := "Zq8vK2mP9xL4VcjqxBI4"
	pem := "-----BEGIN PRIVATE KEY-----\n" + strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"+"\n", 40) + "-----END PRIVATE KEY-----"
	filler := strings.Repeat("ordinary output line, nothing to see here\n", 30000) // 1.2 MB
	texts := map[string]string{
		"small":       "ok\n" + value + " echoed first\nthen DB_PASSWORD=" + value + "\n" + pem + "\nand " + pat + " twice " + pat + "\n",
		"across":      filler[:1<<20-20] + "GH=" + pat + "\n" + filler + "password=" + value + "\n" + pem + "\n",
		"none":        filler,
		"empty":       "",
		"early first": value + "\n" + filler + filler + "secret: " + value + "\n",
	}
	dir := t.TempDir()
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name+".txt")
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			fh, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			var scanned atomic.Int64
			got := scanSpill(fh, findText, func(m SecretMatch, line int) SecretFinding {
				return SecretFinding{Rule: m.Rule, Line: line, Secret: m.Secret}
			}, &scanned)
			want := spillWant(text)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
			if (len(want) == 0) != (name == "none" || name == "empty") {
				t.Errorf("%d findings: the case does not test what it says", len(want))
			}
			if name == "early first" && (len(want) != 1 || want[0].Line != 1) {
				t.Errorf("want the value placed on line 1, where its text first occurs: %+v", want)
			}
			if scanned.Load() != int64(len(text)) {
				t.Errorf("scanned %d bytes, want %d", scanned.Load(), len(text))
			}
		})
	}
}

func TestFirstLines(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	text := strings.Repeat("line\n", 250000) + "A" + long + "\nB\n"
	secrets := []string{"A" + long, "B", "line\nline", "absent"}
	got, err := firstLines(iotest.HalfReader(strings.NewReader(text)), secrets)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{250001, 250002, 1, 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
