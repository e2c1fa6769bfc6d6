package logs

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/agent-activity/agent-activity/codex"
	"github.com/agent-activity/agent-activity/internal/fixture"
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

func findLine(line []byte) []SecretMatch {
	var out []SecretMatch
	for _, f := range redact.FindJSON(line) {
		out = append(out, SecretMatch{Rule: f.Rule, Secret: f.Secret})
	}
	return out
}

// TestScanSecretsWhileReadingMatchesScan: the scan made while a cold store
// reads its files answers exactly like a scan of the finished snapshot, on
// the fixtures (with a secret on an undecodable line and on a torn last
// line, which the store's read does not fold) and on the public corpus.
func TestScanSecretsWhileReadingMatchesScan(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	sid := "5e1c0a57-0000-4000-8000-00000000beef"
	body := `{"type":"user","sessionId":"` + sid + `","uuid":"u1","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"hi"}}` + "\n" +
		`{"type":"user","sessionId":"` + sid + `", broken GITHUB_TOKEN=ghp_` + strings.Repeat("a1B2", 9) + "\n" +
		`{"type":"user","sessionId":"` + sid + `","uuid":"u2","timestamp":"2026-11-20T10:01:00.000Z","message":{"role":"user","content":"key AKIAIOSFODNN7EXAMPLQ here"}}` + "\n" +
		`{"type":"user","sessionId":"` + sid + `","uuid":"u3","timestamp":"2026-11-20T10:02:00.000Z","message":{"role":"user","content":"torn password=Zq8vK2mP9xL4VcjqxBI4`
	if err := os.MkdirAll(filepath.Join(root, "-home-dev-torn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "-home-dev-torn", sid+".jsonl"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := map[string][]string{"fixtures": {root}}
	if base := filepath.Join("..", "..", "shared", "corpus", "public"); dirExists(base) {
		roots["public"] = fixture.ProjectRoots(base)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	for name, rs := range roots {
		t.Run(name, func(t *testing.T) {
			cfg := Config{Agents: testAgents, Roots: rs, Now: func() time.Time { return now }, Pricing: testPricing(t), Location: time.UTC}
			// The whole history, then from its middle finding on.
			rngs := []TimeRange{{}}
			for k := 0; k < len(rngs); k++ {
				rng := rngs[k]
				st := NewStore(cfg)
				_, read, err := st.ScanSecretsWhileReading(context.Background(), nil, findLine)
				if err != nil || read == nil {
					t.Fatalf("cold store gave no scan while reading (%v)", err)
				}
				if _, again, _ := st.ScanSecretsWhileReading(context.Background(), nil, findLine); again != nil {
					t.Fatal("a warm store scanned while reading")
				}
				snap, err := st.Snapshot(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				q := SecretQuery{Sessions: snap.Sessions, Range: rng, FindLine: findLine, FindText: findText}
				two, err := snap.ScanSecrets(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				q.Read = read
				one, err := snap.ScanSecrets(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				if a, b := renderScan(one), renderScan(two); a != b {
					t.Errorf("range %v: one pass\n%s\ntwo passes\n%s", rng, a, b)
				}
				if len(two.Findings) == 0 {
					t.Fatalf("range %v: no findings; the comparison proves nothing", rng)
				}
				if k == 0 {
					times := make([]int64, len(two.Findings))
					for i, f := range two.Findings {
						times[i] = f.Time
					}
					slices.Sort(times)
					rngs = append(rngs, TimeRange{Since: times[len(times)/2]})
				}
				if name == "fixtures" && rng.Since == 0 {
					lines := map[int]bool{}
					for _, f := range two.Findings {
						if strings.HasSuffix(f.File, sid+".jsonl") {
							lines[f.Line] = true
						}
					}
					if !lines[2] || !lines[3] || !lines[4] {
						t.Errorf("torn-file findings on lines %v, want 2 (undecodable), 3 and 4 (torn)", lines)
					}
				}
			}
		})
	}
}

// renderScan is a scan's counts and findings, a line each.
func renderScan(r SecretScan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files=%d bytes=%d\n", r.FilesScanned, r.BytesScanned)
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s %s:%d %s %d %s\n", f.Rule, f.File, f.Line, f.Session.ID, f.Time, f.Secret)
	}
	return b.String()
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// TestScanSecretsPassesOverCleanLongLines: a scan that passes over the long
// lines its pre-check clears on their pieces (SecretQuery.MayLine) finds
// exactly what a scan of every line whole finds, with secrets of each kind
// inside a piece and across the seams of two, the widest (a 60 KB JWT, a
// PEM block written with \n escapes) over a seam, and holds no clean long
// line: FindLine sees only the long lines that hold a secret. A Codex
// rollout's reader asks for every line (the next lines' state needs it), so
// there the scan passes over none and finds the same.
func TestScanSecretsPassesOverCleanLongLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	chars := func(n int, set string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[rng.IntN(len(set))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	const base64url = alnum + "-_"
	var pem strings.Builder
	pem.WriteString(`-----BEGIN RSA PRIVATE KEY-----\n`)
	for range 40 {
		pem.WriteString(chars(64, alnum+"+/") + `\n`)
	}
	pem.WriteString(`-----END RSA PRIVATE KEY-----`)
	samples := []string{ // as a JSON string holds them
		"ghp_" + chars(36, alnum),
		"AKIA" + chars(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
		"eyJhbGciOiJIUzI1NiJ9.eyJ" + chars(60<<10, base64url) + "." + chars(43, base64url),
		pem.String(),
		`\"password\": \"Zq8vK2mP9xL4VcjqxBI4\"`,
		"https://deploy:Zq8vK2mP9xL4Vcjq@example.com/x",
		"xoxb-123456789012-1234567890123-" + chars(24, alnum),
		"sk-ant-api03-" + chars(93, base64url) + "AA",
	}
	for _, agent := range []string{"claudecode", "codex"} {
		t.Run(agent, func(t *testing.T) {
			scanPassesOverCleanLongLines(t, agent, samples, chars)
		})
	}
}

// scanPassesOverCleanLongLines is TestScanSecretsPassesOverCleanLongLines
// for one agent's format.
func scanPassesOverCleanLongLines(t *testing.T, agent string, samples []string, chars func(int, string) string) {
	const piece = 256 << 10 // the line reader's buffer: a long line's pieces
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	rng := rand.New(rand.NewPCG(14, 4))
	sid := "5e1c0a57-0000-4000-8000-00000000cafe"
	root := t.TempDir()
	cfg := Config{Now: func() time.Time { return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC) }, Pricing: testPricing(t), Location: time.UTC}
	// A user line with text around a long string, a second apart, and the
	// file's path.
	at := func(n int) string { return fmt.Sprintf("2026-11-20T10:%02d:%02d.000Z", n/60, n%60) }
	head := func(n int) string {
		return `{"type":"user","sessionId":"` + sid + `","uuid":"u` + fmt.Sprint(n) + `","timestamp":"` + at(n) + `","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","data":"`
	}
	tail := `"}}]}}`
	path := filepath.Join(root, "projects", "-home-dev-long", sid+".jsonl")
	var lines []string
	cfg.Agents, cfg.Roots = testAgents, []string{filepath.Join(root, "projects")}
	if agent == "codex" {
		sid = "019a7ae6-1945-7c63-98f2-210adb92cafe"
		head = func(n int) string {
			return `{"timestamp":"` + at(n) + `","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"`
		}
		tail = `"}]}}`
		path = filepath.Join(root, "sessions", "2026", "11", "20", "rollout-2026-11-20T10-00-00-"+sid+".jsonl")
		lines = append(lines, `{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"`+sid+`","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/home/dev/long","originator":"codex_cli_rs","cli_version":"0.57.0"}}`)
		cfg.Agents, cfg.Roots, cfg.Sources = nil, nil, []Source{{Agent: codex.Agent{}, Roots: []string{root}}}
	}
	longLine := func(n int, secret string, at int) string {
		// Long enough for the JWT in the middle of the second seam.
		b := []byte(head(n) + chars(2*piece+64<<10, alnum+"+/") + tail)
		if secret != "" {
			copy(b[at:], " "+secret+" ")
		}
		return string(b)
	}
	wantLong := 0
	for i, sec := range samples {
		if fs := redact.FindJSON([]byte(`{"a":"x ` + sec + ` y"}`)); len(fs) != 1 {
			t.Fatalf("sample %d: %d findings alone, want 1", i, len(fs))
		}
		// Inside the first piece; across the first and the second seam at
		// its first byte, its middle and its last; just after a seam; and
		// two places at random.
		ats := []int{1000, piece - 1, piece - len(sec)/2, piece - len(sec) - 1, 2*piece - len(sec)/2, piece + 3,
			len(head(0)) + rng.IntN(2*piece-len(sec)), len(head(0)) + rng.IntN(2*piece-len(sec))}
		for _, at := range ats {
			lines = append(lines, longLine(len(lines), sec, at))
			wantLong++
		}
		lines = append(lines, head(len(lines))+"short "+sec+" line"+tail)
	}
	lines = append(lines, longLine(len(lines), "", 0), longLine(len(lines)+1, "", 0))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := NewStore(cfg).Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var long atomic.Int64
	q := SecretQuery{Sessions: snap.Sessions, FindText: findText, FindLine: func(line []byte) []SecretMatch {
		if len(line) > piece {
			long.Add(1)
		}
		return findLine(line)
	}}
	whole, err := snap.ScanSecrets(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if n := int(long.Load()); n != wantLong+2 {
		t.Fatalf("the whole scan gave FindLine %d long lines, want %d", n, wantLong+2)
	}
	long.Store(0)
	q.MayLine, q.Reach = redact.MayHoldJSON, redact.JSONReach
	passed, err := snap.ScanSecrets(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Findings) != len(samples)*9 {
		t.Errorf("the whole scan found %d secrets, want one on each of %d lines", len(whole.Findings), len(samples)*9)
	}
	if a, b := renderScan(passed), renderScan(whole); a != b {
		t.Errorf("passing over clean long lines\n%s\nevery line whole\n%s", a, b)
	}
	if agent == "codex" {
		wantLong += 2 // its reader yields every line (Lines.YieldEvery)
	}
	if n := int(long.Load()); n != wantLong {
		t.Errorf("FindLine saw %d long lines, want %d", n, wantLong)
	}
}
