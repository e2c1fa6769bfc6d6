package logs

import (
	"reflect"
	"testing"
	"time"
)

// TestReportMemoBudget checks the memos' row budget on the public corpus: a
// report of at most half the budget is kept in both memos, a larger one in
// neither and is the same report when asked again, and a report that would
// take a memo past the budget empties it first.
func TestReportMemoBudget(t *testing.T) {
	snap := snapshotOf(t, corpusRoots(t), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	if !snap.flat {
		t.Fatal("a full build's snapshot has its runs in a row")
	}
	byDay := ReportQuery{GroupBy: []string{"day"}}
	byDayModel := ReportQuery{GroupBy: []string{"day", "model"}}
	byModel := ReportQuery{GroupBy: []string{"model"}}
	byRepo := ReportQuery{GroupBy: []string{"repo"}}
	var n [4]int
	for i, q := range []ReportQuery{byDay, byDayModel, byModel, byRepo} {
		n[i] = len(reportUnmemoized(snap, q).Rows)
	}
	if n != [4]int{13, 18, 6, 11} {
		t.Fatalf("the corpus's reports by day, day and model, model and repo have %v rows; the test expects [13 18 6 11]", n)
	}
	defer func(n int) { memoRows = n }(memoRows)
	memoRows = 26 // a report by day (13 rows) is the largest kept

	memoized := func(q ReportQuery) (report, runs bool) {
		key := q.key()
		snap.memoMu.Lock()
		_, report = snap.reports.get(key)
		snap.memoMu.Unlock()
		snap.runsMemo.mu.Lock()
		_, runs = snap.runsMemo.byQ.get(key)
		snap.runsMemo.mu.Unlock()
		return report, runs
	}
	held := func(want int) {
		t.Helper()
		if r, g := snap.reports.rows, snap.runsMemo.byQ.rows; r != want || g != want {
			t.Fatalf("the memos hold %d and %d rows, want %d", r, g, want)
		}
	}

	first := snap.Report(byDay)
	if r, g := memoized(byDay); !r || !g {
		t.Fatalf("a report of 13 rows, half the budget, is kept: report %v, runs %v", r, g)
	}
	held(13)
	big := snap.Report(byDayModel)
	if r, g := memoized(byDayModel); r || g {
		t.Fatalf("a report of 18 rows, over half the budget, is not kept: report %v, runs %v", r, g)
	}
	held(13)
	if again := snap.Report(byDayModel); !reflect.DeepEqual(again, big) || len(again.Rows) != 18 {
		t.Fatalf("a report not kept differs when asked again (%d rows)", len(again.Rows))
	}
	snap.Report(byModel) // 13 + 6 rows, within 26
	held(19)
	if r, g := memoized(byDay); !r || !g {
		t.Fatal("a report within the budget emptied the memo")
	}
	snap.Report(byRepo) // 19 + 11 rows are past 26: the memos empty, then hold this one
	held(11)
	if r, g := memoized(byDay); r || g {
		t.Fatal("a memo emptied for a report past its budget still holds an earlier one")
	}
	if again := snap.Report(byDay); !reflect.DeepEqual(again, first) {
		t.Fatal("a report asked again after its memo was emptied differs from the first")
	}
	held(24)
}

// TestRunsMemoCountsAReplacedStateOnce: a walk kept again under its key (an
// append moved the snapshots on, or two walks at once) replaces the state
// it kept before, and the memo counts its groups once.
func TestRunsMemoCountsAReplacedStateOnce(t *testing.T) {
	defer func(n int) { memoRows = n }(memoRows)
	memoRows = 100
	var m runsMemo
	state := func(n int) func() runsReport {
		return func() runsReport {
			r := runsReport{groups: map[string]*reportGroup{}}
			for i := range n {
				r.groups[string(rune('a'+i))] = &reportGroup{}
			}
			return r
		}
	}
	m.put("q", 30, state(30))
	m.put("p", 10, state(10))
	m.put("q", 40, state(40))
	if q, _ := m.byQ.get("q"); m.byQ.rows != 50 || len(m.byQ.byKey) != 2 || len(q.groups) != 40 {
		t.Fatalf("rows %d, %d states, q of %d groups; want 50, 2 and 40", m.byQ.rows, len(m.byQ.byKey), len(q.groups))
	}
	m.put("r", 50, state(50)) // 50 + 50 is the budget: kept beside the others
	if m.byQ.rows != 100 || len(m.byQ.byKey) != 3 {
		t.Fatalf("rows %d, %d states; want 100 and 3", m.byQ.rows, len(m.byQ.byKey))
	}
}
