package claudecode

import (
	"bytes"
	"context"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

// TestWantProseIsTextWithoutResults: on every corpus line, WantProse fills
// the prose exactly as WantText does and leaves a result's text to errors,
// and WantText asked after it fills what WantProse left.
func TestWantProseIsTextWithoutResults(t *testing.T) {
	lines := corpusLines(t)
	withResults, skipped := 0, 0
	for _, line := range lines {
		line = append(bytes.Clone(line), '\n')
		full := NewReader(context.Background(), bytes.NewReader(line), 0, 0)
		prose := NewReader(context.Background(), bytes.NewReader(line), 0, 0)
		if !full.Scan() || !prose.Scan() {
			t.Fatalf("no line in %.80q", line)
		}
		want, ok := full.Entry(transcript.WantText)
		got, ok2 := prose.Entry(transcript.WantProse)
		if ok != ok2 {
			t.Fatalf("decoded %v with WantText, %v with WantProse: %.120q", ok, ok2, line)
		}
		if !ok {
			continue
		}
		if got.Text != want.Text || got.UserText != want.UserText {
			t.Fatalf("prose differs on %.120q:\n%q %q\n%q %q", line, got.Text, got.UserText, want.Text, want.UserText)
		}
		for i, r := range got.Results {
			if r.State == transcript.ResultOK && r.Text != "" {
				t.Fatalf("WantProse filled the text of a result that is no error: %.120q", line)
			}
			if r.Text == "" && want.Results[i].Text != "" {
				skipped++
			}
		}
		if len(got.Results) > 0 {
			withResults++
		}
		again, _ := prose.Entry(transcript.WantText)
		for i := range again.Results {
			if again.Results[i].Text != want.Results[i].Text || again.Results[i].Spilled != want.Results[i].Spilled {
				t.Fatalf("WantText after WantProse: result %d differs on %.120q", i, line)
			}
		}
		full.Close()
		prose.Close()
	}
	if withResults == 0 || skipped == 0 {
		t.Fatalf("%d lines with results, %d texts left out: the comparison proves nothing", withResults, skipped)
	}
}

// TestBorrowedTextsAgree: the texts the fast path borrows (unquoted onto the
// reader's buffer) equal the ones a reader without it gives, on every corpus
// line and on a line of several escaped results (each unquoted after the
// one before, into one buffer).
func TestBorrowedTextsAgree(t *testing.T) {
	lines := corpusLines(t)
	lines = append(lines, []byte(`{"type":"user","sessionId":"s","uuid":"u","timestamp":"2026-11-30T00:00:00.000Z","message":{"role":"user","content":[`+
		`{"type":"tool_result","tool_use_id":"a","content":"first\nline \"one\""},`+
		`{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"second\ttext \u00e9"}]},`+
		`{"type":"tool_result","tool_use_id":"c","content":"plain third"},`+
		`{"type":"tool_result","tool_use_id":"d","content":"fourth\\\\path"}]}}`),
		[]byte(`{"type":"assistant","sessionId":"s","uuid":"v","timestamp":"2026-11-30T00:00:01.000Z","message":{"id":"m","role":"assistant","model":"x","content":[`+
			`{"type":"text","text":"one\n\"quoted\""},{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}},{"type":"text","text":"two\tthree"}]}}`))
	borrowed := 0
	for _, line := range lines {
		line = append(bytes.Clone(line), '\n')
		own := NewReader(context.Background(), bytes.NewReader(line), 0, 0)
		lent := NewReader(context.Background(), bytes.NewReader(line), 0, 0)
		own.fast = nil // sonic's strings, each its own
		own.Scan()
		lent.Scan()
		want, ok := own.Entry(transcript.WantText)
		got, ok2 := lent.Entry(transcript.WantText)
		if ok != ok2 || !ok {
			continue
		}
		if got.Text != want.Text || got.UserText != want.UserText {
			t.Fatalf("prose of %.120q: borrowed %q, own %q", line, got.Text, want.Text)
		}
		for i := range want.Results {
			if got.Results[i].Text != want.Results[i].Text || got.Results[i].Spilled != want.Results[i].Spilled {
				t.Fatalf("result %d of %.120q: borrowed %q, own %q", i, line, got.Results[i].Text, want.Results[i].Text)
			}
		}
		if len(lent.sub.textBuf) > 0 {
			borrowed++
		}
		own.Close()
		lent.Close()
	}
	if borrowed == 0 {
		t.Fatal("no text was borrowed: the comparison proves nothing")
	}
}
