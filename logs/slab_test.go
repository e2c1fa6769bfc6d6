package logs

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestSlabLists: a slab's lists are copies at their length with no room
// past it, so an append to one moves it out and leaves its neighbours as
// they were; lists from goroutines at once never overlap.
func TestSlabLists(t *testing.T) {
	s := slab[int]{chunks: chunks[int]{size: 64}}
	if got := s.copyOf(nil); got != nil {
		t.Errorf("an empty list copies as %v", got)
	}
	src := []int{1, 2, 3}
	a := s.copyOf(src)
	b := s.copyOf([]int{4, 5})
	src[0] = 9 // a copy, not the caller's list
	if !slices.Equal(a, []int{1, 2, 3}) || !slices.Equal(b, []int{4, 5}) || cap(a) != 3 || cap(b) != 2 {
		t.Fatalf("lists %v (cap %d) and %v (cap %d)", a, cap(a), b, cap(b))
	}
	if &a[0] == &b[0] || &a[2] != &s.chunk[2] || &b[0] != &s.chunk[3] {
		t.Errorf("the lists are not one after another in the chunk")
	}
	a = append(a, 7)
	if !slices.Equal(b, []int{4, 5}) {
		t.Errorf("an append to the list before changed its neighbour: %v", b)
	}
	big := make([]int, 17) // over a quarter of a chunk: alone
	if got := s.copyOf(big); len(got) != 17 || &got[0] == &s.chunk[:cap(s.chunk)][len(s.chunk)-1] {
		t.Errorf("a long list: %d elements", len(got))
	}
	if len(s.chunk) != 5 {
		t.Errorf("the chunk holds %d elements after a long list, want 5", len(s.chunk))
	}
	var wg sync.WaitGroup
	lists := make([][]int, 200)
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(lists); i += 2 {
				lists[i] = s.copyOf([]int{i, i, i, i, i, i, i})
			}
		}()
	}
	wg.Wait()
	for i, l := range lists {
		if !slices.Equal(l, []int{i, i, i, i, i, i, i}) {
			t.Fatalf("list %d reads %v", i, l)
		}
	}
}

// TestScratchFiles: the scratch hands out zero file-call records, each
// once, across chunks, and recycling it keeps the records handed out.
func TestScratchFiles(t *testing.T) {
	s := takeScratch()
	seen := map[*callFiles]bool{}
	for i := range 2*s.files.size + 3 {
		cf := s.files.next()
		if seen[cf] || *cf != (callFiles{}) {
			t.Fatalf("record %d: handed out before, or not zero", i)
		}
		seen[cf] = true
		newCallFiles(cf, "a.go", "toolu_1", nil)
		if i%500 == 0 {
			s.give()
			s = takeScratch()
		}
	}
	for cf := range seen {
		if cf.path != "a.go" {
			t.Fatalf("a record handed out reads %+v", *cf)
		}
	}
}

// TestHotReadsLeaveSlabs: the reads of a growing file, and its cooling,
// keep their lists on the heap, so that a live session read again and
// again does not fill the slabs with copies no summary holds any more;
// only a read from a file's start puts its lists there.
func TestHotReadsLeaveSlabs(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	sid := "5e2f1c1a-0000-4000-8000-000000000hot"
	p := filepath.Join(root, "-home-dev-hot", sid+".jsonl")
	line := func(i int) string {
		ts := fmt.Sprintf("2026-11-29T10:%02d:00.000Z", i)
		return asst(sid, fmt.Sprintf("a-%d", i), ts, fmt.Sprintf("msg_%d", i), "claude-sonnet-4-5",
			toolUse(fmt.Sprintf("toolu_%d", i), "Edit", `{"file_path":"/home/dev/hot/a.go"}`), 1, 2, 0, 0, "")
	}
	writeFile(t, p, line(0))
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
	used := func() [3]int { return [3]int{len(callSlab.chunk), len(messageSlab.chunk), len(toolSlab.chunk)} }
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	before := used()
	for i := 1; i <= 5; i++ {
		appendLine(t, p, line(i))
		snap, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := snap.Sessions[0].numCalls; n != i+1 {
			t.Fatalf("after append %d: %d calls", i, n)
		}
	}
	var hot *FileSummary
	for _, f := range st.files {
		hot = f
	}
	if len(st.files) != 1 || !hot.hot {
		t.Fatalf("%d files, hot %v", len(st.files), hot.hot)
	}
	if cool := hot.cooled(); cool.messages.Len() != 6 || len(cool.Calls) != 6 {
		t.Fatalf("cooled: %d messages, %d calls", cool.messages.Len(), len(cool.Calls))
	}
	if after := used(); after != before {
		t.Errorf("the slabs' chunks went from %v to %v over a growing file's reads", before, after)
	}
}
