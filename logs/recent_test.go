package logs

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
)

// TestRecentMatchesFullSnapshot: the cold-store answer from the newest files
// lists the same sessions, in the same order, with the same numbers as a
// search of the whole history.
func TestRecentMatchesFullSnapshot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), root); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)}
	full, err := NewStore(cfg).Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	render := func(ss []*Session) string {
		var b strings.Builder
		for _, s := range ss {
			fmt.Fprintf(&b, "%s %s %d %d msgs=%d usage=%+v main=%+v cost=%.6f title=%q\n", s.Key, s.Repo, s.Start, s.End,
				s.MessageCount, s.Usage.Total.Usage, s.Usage.Main.Usage, s.Usage.Total.Cost.USD(), s.Title)
		}
		return b.String()
	}
	partial := 0
	for _, c := range []struct {
		limit int
		repo  string
	}{{1, ""}, {3, ""}, {5, ""}, {20, ""}, {200, ""}, {2, "titles"}, {1, "SHARED"}, {3, "twin"}} {
		st := NewStore(cfg)
		res, ok, err := st.Recent(context.Background(), c.limit, c.repo)
		if err != nil || !ok {
			t.Fatalf("%+v: ok=%v err=%v", c, ok, err)
		}
		var want []*Session
		total := 0
		for _, s := range full.Sessions {
			if MatchRepo(s, c.repo) {
				total++
				if len(want) < c.limit {
					want = append(want, s)
				}
			}
		}
		if g, w := render(res.Sessions), render(want); g != w || res.Total != total {
			t.Errorf("%+v: total %d (want %d)\n got:\n%s\nwant:\n%s", c, res.Total, total, g, w)
		}
		if len(st.files) < len(full.Files) {
			partial++
		}
		// The full snapshot that follows reuses what was read and agrees.
		after, err := st.Snapshot(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := render(after.Sessions), render(full.Sessions); g != w {
			t.Errorf("%+v: the snapshot after Recent differs from a fresh one", c)
		}
	}
	if partial == 0 {
		t.Error("Recent always read every file: the fast path was never taken")
	}
}
