package logs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/redact"
)

// TestTailAndRecapStopWhenCancelled reads a 100 MB session: a cancelled
// request makes tail, recap and call details stop with the context's error,
// not read the file to its end or report the file unreadable.
func TestTailAndRecapStopWhenCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	root := t.TempDir()
	proj := filepath.Join(root, "-w-big")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	sid := "0d9c8b7a-6f5e-4d3c-8b2a-190817263544"
	pad := strings.Repeat("x", 900)
	var b strings.Builder
	for i := 0; b.Len() < 100<<20; i++ {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","sessionId":%q,"timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w/big","message":{"role":"user","content":"prompt %d %s"}}`+"\n", i, sid, i, pad)
	}
	if err := os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sn := snap(t, root)
	s := sn.Sessions[0]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := sn.Tail(ctx, s, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("tail on a cancelled request: err %v, want context.Canceled", err)
	}
	if _, err := sn.Recap(ctx, s, 20); !errors.Is(err, context.Canceled) {
		t.Errorf("recap on a cancelled request: err %v, want context.Canceled", err)
	}
	if _, err := sn.CallDetails(ctx, s, map[uint64]bool{1: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("call details on a cancelled request: err %v, want context.Canceled", err)
	}
}

// TestLineNumbersAgree is the line-number contract: in a file with blank
// lines and CRLF line ends, the line a secret is reported on by the secret
// scan is the physical line the summaries give the same response and call.
func TestLineNumbersAgree(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "-w-lines")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	sid := "1e2d3c4b-5a69-4788-9766-554433221100"
	secret := "ghp_Lm9Nk8Jh7Gf6Ds5Ap4Qw3Er2Ty1Ui0OpZx8Cv"
	lines := []string{
		`{"type":"user","uuid":"u1","sessionId":"` + sid + `","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w/lines","message":{"role":"user","content":"go"}}`,
		``,
		`   `,
		`{"type":"assistant","uuid":"a1","sessionId":"` + sid + `","timestamp":"2026-11-29T10:00:01.000Z","message":{"id":"m1","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo ` + secret + `"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		``,
	}
	if err := os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(strings.Join(lines, "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	sn := snap(t, root)
	s := sn.Sessions[0]
	scan, err := sn.ScanSecrets(context.Background(), SecretQuery{Sessions: []*Session{s}, FindLine: func(line []byte) []SecretMatch {
		var out []SecretMatch
		for _, f := range redact.FindJSON(line) {
			out = append(out, SecretMatch{Rule: f.Rule, Secret: f.Secret})
		}
		return out
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(scan.Findings) != 1 {
		t.Fatalf("%d findings, want 1", len(scan.Findings))
	}
	const want = 4 // physical: the blank and whitespace-only lines count
	if got := scan.Findings[0].Line; got != want {
		t.Errorf("scan_secrets line %d, want %d", got, want)
	}
	if got := s.Main.Calls[0].Line; got != want {
		t.Errorf("the call's line %d, want %d", got, want)
	}
	var first Message
	for _, m := range s.Main.Messages() {
		first = m
		break
	}
	if got := first.Line; got != want {
		t.Errorf("the response's line %d, want %d", got, want)
	}
}

func TestCompareVersions(t *testing.T) {
	vs := []string{"2.1.232", "2.1.83", "2.0.9", "2.1.83-beta", "10.0.0", "2.1"}
	sort.Slice(vs, func(i, j int) bool { return CompareVersions(vs[i], vs[j]) < 0 })
	want := "2.0.9 2.1 2.1.83 2.1.232 2.1.83-beta 10.0.0"
	if got := strings.Join(vs, " "); got != want {
		t.Fatalf("sorted %s, want %s", got, want)
	}
}

// TestRecapEndsOnAPIError is testdata/replay case f: real text, then a final
// <synthetic> API error. The recap's final text is the real text, and it says
// the session ended on an API error.
func TestRecapEndsOnAPIError(t *testing.T) {
	root := filepath.Join(t.TempDir(), "replay")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "replay", "-home-dev-apierror"), filepath.Join(root, "-home-dev-apierror")); err != nil {
		t.Fatal(err)
	}
	sn := snap(t, root)
	s := sn.Sessions[0]
	r, err := sn.Recap(context.Background(), s, 20)
	if err != nil {
		t.Fatal(err)
	}
	const want = "TestRetry depends on wall-clock sleeps; under load the 50ms window is missed. Use a fake clock."
	if r.FinalText != want || !r.EndedOnAPIError {
		t.Fatalf("final text %q (ended on API error %v), want %q and true", r.FinalText, r.EndedOnAPIError, want)
	}
	if s.APIErrors != 1 {
		t.Fatalf("api_errors %d, want 1", s.APIErrors)
	}
}
