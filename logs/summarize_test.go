package logs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNewestFiles: the files summarize_work lists are the n changed last,
// newest first and by path among those changed at the same time, the same
// as the head of every file sorted, for every n.
func TestNewestFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]*WorkFile{}
	var all []WorkFile
	for i := range 500 {
		f := WorkFile{Path: fmt.Sprintf("src/f%03d.go", rng.IntN(1000)), Last: int64(rng.IntN(40)), Edits: i}
		if files[f.Path] != nil {
			continue
		}
		files[f.Path] = &f
		all = append(all, f)
	}
	slices.SortFunc(all, func(a, b WorkFile) int {
		if a.Last != b.Last {
			return int(b.Last - a.Last)
		}
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	for _, n := range []int{0, 1, 2, 30, len(all) - 1, len(all), len(all) + 5} {
		got := newestFiles(files, n)
		want := all[:min(n, len(all))]
		if len(got) != len(want) {
			t.Fatalf("n=%d: %d files, want %d", n, len(got), len(want))
		}
		for i := range want {
			if got[i].Path != want[i].Path || got[i].Last != want[i].Last || got[i].Edits != want[i].Edits {
				t.Fatalf("n=%d: file %d is %+v, want %+v", n, i, got[i], want[i])
			}
		}
	}
}
