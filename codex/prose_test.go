package codex

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-activity/agent-activity/transcript"
)

// TestWantProseIsTextWithoutResults: on every rollout of the public corpus,
// WantProse fills the prose exactly as WantText does and leaves a tool
// output's text out (unless it is an error, which every pass fills).
func TestWantProseIsTextWithoutResults(t *testing.T) {
	if _, err := os.Stat(corpusBase); err != nil {
		t.Skipf("public Codex corpus not found at %s", corpusBase)
	}
	roots, _ := filepath.Glob(filepath.Join(corpusBase, "*"))
	outputs := 0
	for _, root := range roots {
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		for _, f := range discoverFiles(root) {
			open := func() (*os.File, transcript.EntryReader) {
				fh, err := os.Open(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				return fh, Agent{}.NewReader(context.Background(), fh, 0, 0)
			}
			fa, full := open()
			fb, prose := open()
			for full.Scan() {
				if !prose.Scan() {
					t.Fatalf("%s: the second reader ended first", f.Path)
				}
				want, ok := full.Entry(transcript.WantText)
				got, ok2 := prose.Entry(transcript.WantProse)
				if ok != ok2 || !ok {
					continue
				}
				if got.Text != want.Text || got.UserText != want.UserText {
					t.Fatalf("%s line %d: prose differs", f.Path, got.Line)
				}
				for i, r := range got.Results {
					if want.Results[i].Text != "" && r.State == transcript.ResultOK {
						outputs++
						if r.Text != "" {
							t.Fatalf("%s line %d: WantProse filled a tool output's text", f.Path, got.Line)
						}
					}
				}
			}
			full.Close()
			prose.Close()
			fa.Close()
			fb.Close()
		}
	}
	if outputs == 0 {
		t.Fatal("no tool output had text: the comparison proves nothing")
	}
}
