package logs

import (
	"math"
	"testing"
	"time"
)

// TestExportCountsAsTheTools: the export's rows add up to the usage report
// and to the per-session call counts, over the whole history and a window.
func TestExportCountsAsTheTools(t *testing.T) {
	snap := snapshotOf(t, corpusRoots(t), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	since := time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, r := range []TimeRange{{}, {Since: since}} {
		want := snap.Report(ReportQuery{GroupBy: []string{"day"}, Range: r}).Totals
		var got Usage
		var cost float64
		n := 0
		for row := range snap.ExportResponses(r) {
			got.Input += row.Input
			got.Output += row.Output
			got.CacheCreate5m += row.CacheCreation
			got.CacheRead += row.CacheRead
			cost += row.Cost
			n++
			if row.Machine != LocalMachine || row.Agent != "claude-code" || (row.Cost == 0) != (row.CostStatus == "unknown" || row.Input+row.Output+row.CacheCreation+row.CacheRead == 0) {
				t.Fatalf("row %+v", row)
			}
		}
		if got.Total() != want.Total() || got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead ||
			math.Abs(cost-want.Cost.Cost) > 1e-9 || int64(n) != want.Cost.PricedResponses+want.Cost.UnpricedResponses {
			t.Errorf("range %+v: export %d rows %+v cost %v; report %+v", r, n, got, cost, want)
		}
	}
	var want, got OutcomeCounts
	for _, s := range snap.Sessions {
		c := CountCalls(s, snap.IsLive(s)).Total
		want.OK, want.Error, want.Rejected, want.Pending, want.InProgress, want.Total =
			want.OK+c.OK, want.Error+c.Error, want.Rejected+c.Rejected, want.Pending+c.Pending, want.InProgress+c.InProgress, want.Total+c.Total
	}
	for row := range snap.ExportToolCalls(TimeRange{}) {
		got.Add(row.Outcome)
	}
	if got != want || want.Total == 0 {
		t.Errorf("tool calls: export %+v, CountCalls %+v", got, want)
	}
}
