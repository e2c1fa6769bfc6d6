package logs

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/pricing"
)

// corpusRoots returns every `projects` log root of the public corpus.
func corpusRoots(t testing.TB) []string {
	t.Helper()
	base := filepath.Join("..", "..", "shared", "corpus", "public")
	if _, err := os.Stat(base); err != nil {
		t.Skipf("public corpus not found at %s", base)
	}
	return fixture.ProjectRoots(base)
}

func testPricing(t testing.TB) *pricing.Table {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pricing.json"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := pricing.Load(b, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func snapshotOf(t testing.TB, roots []string, now time.Time) *Snapshot {
	t.Helper()
	st := NewStore(Config{Agents: testAgents, Roots: roots, Now: func() time.Time { return now }, Pricing: testPricing(t), Location: time.UTC})
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestPublicCorpusTotals(t *testing.T) {
	snap := snapshotOf(t, corpusRoots(t), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	var total Usage
	for s, r := range snap.AllResponses() {
		total.Add(s.UsageOf(r))
	}
	if got, want := len(snap.Sessions), 13; got != want {
		t.Errorf("sessions = %d, want %d", got, want)
	}
	want := Usage{Input: 279640, Output: 333389, CacheRead: 86789501}
	if total.Input != want.Input || total.Output != want.Output || total.CacheRead != want.CacheRead || total.CacheCreate() != 3055700 {
		t.Errorf("totals = in %d out %d cc %d cr %d; want in 279640 out 333389 cc 3055700 cr 86789501",
			total.Input, total.Output, total.CacheCreate(), total.CacheRead)
	}
	var sum Usage
	for _, s := range snap.Sessions {
		sum.Add(s.Usage.Total.Usage)
		var ms Usage
		ms.Add(s.Usage.Main.Usage)
		ms.Add(s.Usage.Sidechain.Usage)
		if ms.Total() != s.Usage.Total.Total() {
			t.Errorf("%s: main+sidechain %d != total %d", s.ID, ms.Total(), s.Usage.Total.Total())
		}
		if s.ID == "" {
			t.Errorf("session without id: %s", s.Key)
		}
		st := CountCalls(s, false)
		o := st.Total
		if o.OK+o.Error+o.Rejected+o.Pending+o.InProgress != o.Total {
			t.Errorf("%s: outcomes do not sum: %+v", s.ID, o)
		}
		t.Logf("%s %-28s msgs=%4d sub=%d err=%d calls=%+v tokens=%d cost=%.4f %s", s.ID[:8], s.Repo, s.MessageCount, len(s.Subagents), s.APIErrors, o, s.Usage.Total.Total(), s.Usage.Total.Cost.USD(), s.SchemaStatus())
	}
	if sum != total {
		t.Errorf("sessions sum %+v != responses total %+v", sum, total)
	}
	// Per-session figures checked against an independent count (a short
	// Python script over the raw lines: largest-output copy per message.id,
	// synthetic lines skipped, legacy agent files joined by sessionId).
	for id, want := range map[string][4]int64{
		"249778c5-58ac-480d-bb8c-7d441bfe1c2d": {90, 12, 7128, 148415},          // one file, a rejection
		"302863af-e0a0-4488-8928-7f132c701fae": {203923, 22707, 0, 4049103},     // proxy: no requestId, zero early copies
		"d6a37ffc-384d-4d2a-832a-78cdd493af69": {54818, 56861, 897760, 9605660}, // 2.0.58: six legacy sibling agent files
		"12887f5b-b06c-45fe-94fa-66c16aa09eac": {1605, 3287, 714279, 31337409},  // 2.1.22: two nested subagents
	} {
		var s *Session
		for _, c := range snap.Sessions {
			if c.ID == id {
				s = c
			}
		}
		if s == nil {
			t.Errorf("%s missing", id)
			continue
		}
		u := s.Usage.Total.Usage
		if got := [4]int64{u.Input, u.Output, u.CacheCreate(), u.CacheRead}; got != want {
			t.Errorf("%s: in/out/cc/cr = %v, want %v", id[:8], got, want)
		}
	}
}
