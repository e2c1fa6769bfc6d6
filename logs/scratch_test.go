package logs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecycledScratchReadsAlike reads one session's file copied into eight
// projects: each copy's read takes the lists and lookups an earlier read gave
// back, and each file's summary must come out as the file read alone does.
// The copies hold the same message and tool_use ids (a resumed session's
// file holds copies of earlier lines too), so a lookup left holding an
// earlier read's keys would take the copy's calls and responses for repeats.
func TestRecycledScratchReadsAlike(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "projects", "-home-dev-outcomes", "b86f27bf-78c6-43a8-9320-d1ee97d26b45.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		messages, withUsage, calls, withPath int
		output                               int64
	}
	shapeOf := func(f *FileSummary) shape {
		var sh shape
		for _, m := range f.Messages() {
			sh.messages++
			if m.HasUsage {
				sh.withUsage++
				sh.output += m.Usage.Output
			}
		}
		for i := range f.Calls {
			sh.calls++
			if f.Calls[i].Path() != "" {
				sh.withPath++
			}
		}
		return sh
	}
	// Copy i is the file without its last 3i lines, written in the order
	// longest first: a list left holding an earlier read's calls would show
	// in a shorter copy.
	lines := strings.SplitAfter(string(src), "\n")
	copyOf := func(i int) string { return strings.Join(lines[:len(lines)-3*i], "") }
	build := func(copies ...int) []*FileSummary {
		root := filepath.Join(t.TempDir(), "projects")
		for _, i := range copies {
			writeFile(t, filepath.Join(root, fmt.Sprintf("-home-dev-copy%d", i), "b86f27bf-78c6-43a8-9320-d1ee97d26b45.jsonl"), copyOf(i))
		}
		st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return snap.Files
	}
	// The whole file's lines: 7 message ids with usage (670 output tokens
	// in the last line of each), 7 tool_use ids, 3 of them with a file_path.
	if got := shapeOf(build(0)[0]); (got != shape{messages: 7, withUsage: 7, calls: 7, withPath: 3, output: 670}) {
		t.Fatalf("the file alone: %+v", got)
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	together := build(all...)
	if len(together) != len(all) {
		t.Fatalf("%d files from %d copies", len(together), len(all))
	}
	for _, f := range together {
		var i int
		fmt.Sscanf(filepath.Base(filepath.Dir(f.Path)), "-home-dev-copy%d", &i)
		if got, want := shapeOf(f), shapeOf(build(i)[0]); got != want {
			t.Errorf("copy %d: %+v, want %+v (as it reads alone)", i, got, want)
		}
	}
}
