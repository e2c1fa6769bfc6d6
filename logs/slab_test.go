package logs

import (
	"slices"
	"sync"
	"testing"
)

// TestSlabLists: a slab's lists are copies at their length with no room
// past it, so an append to one moves it out and leaves its neighbours as
// they were; lists from goroutines at once never overlap.
func TestSlabLists(t *testing.T) {
	s := slab[int]{size: 64}
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
	for i := range 2*filesChunk + 3 {
		cf := s.nextFiles()
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
