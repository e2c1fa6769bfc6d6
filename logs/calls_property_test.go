package logs

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCallsCountedOnceProperty: for every session of the public corpus, the
// hand-built fixtures and the replay fixtures, the calls summarize_tool_calls
// counts equal the distinct tool_use ids the session owns by an independent
// count (encoding/json over the raw lines: an id belongs to the first session
// in start order that has it, its main file before its subagent files), and
// the outcomes sum to the calls.
func TestCallsCountedOnceProperty(t *testing.T) {
	roots := append(corpusRoots(t), filepath.Join("..", "testdata", "projects"), filepath.Join("..", "testdata", "replay"))
	for _, root := range roots {
		st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		ordered := append([]*Session(nil), snap.Sessions...)
		sortByStart(ordered)
		owner := map[string]*Session{}
		for _, s := range ordered {
			for _, f := range s.Files() {
				for _, id := range rawToolUseIDs(t, f.Path) {
					if owner[id] == nil {
						owner[id] = s
					}
				}
			}
		}
		want := map[*Session]int{}
		for _, s := range owner {
			want[s]++
		}
		for _, s := range snap.Sessions {
			st := CountCalls(s, false)
			o := st.Total
			if o.OK+o.Error+o.Rejected+o.Pending+o.InProgress != o.Total {
				t.Errorf("%s %s: outcomes %+v do not add up", root, s.ID, o)
			}
			if o.Total != want[s] {
				t.Errorf("%s %s: %d calls counted, %d distinct tool_use ids owned", root, s.ID, o.Total, want[s])
			}
		}
	}
}

// rawToolUseIDs lists the tool_use ids of a transcript in file order, read
// without the project's reader.
func rawToolUseIDs(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		var v struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &v) == nil && v.Type == "assistant" {
			var blocks []struct {
				Type string `json:"type"`
				ID   string `json:"id"`
			}
			if json.Unmarshal(v.Message.Content, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "tool_use" && b.ID != "" {
						out = append(out, b.ID)
					}
				}
			}
		}
		if err != nil {
			return out
		}
	}
}
