package main

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestTargetsScaleWithSize(t *testing.T) {
	usage := fullHistory(360 * time.Millisecond)
	for _, c := range []struct {
		size      int64
		time      time.Duration
		rss       int64 // KB
		quickTime time.Duration
	}{
		{30 << 20, 360 * time.Millisecond, 60 << 10, 2 * time.Millisecond},
		{gib, 360 * time.Millisecond, 60 << 10, 2 * time.Millisecond},
		{2 * gib, 744 * time.Millisecond, 90 << 10, 2 * time.Millisecond},
		{4 * gib, 1512 * time.Millisecond, 150 << 10, 2 * time.Millisecond},
	} {
		if got := usage(c.size); got != c.time {
			t.Errorf("usage_report target at %d MB: got %v, want %v", c.size>>20, got, c.time)
		}
		if got := rssTarget(c.size); got != c.rss {
			t.Errorf("RSS target at %d MB: got %d KB, want %d KB", c.size>>20, got, c.rss)
		}
		if got := everySize(2 * time.Millisecond)(c.size); got != c.quickTime {
			t.Errorf("warm target at %d MB: got %v, want %v", c.size>>20, got, c.quickTime)
		}
	}
}

// fakeResult is a size measured as if every time and RSS were those at 1 GB
// times scale.
func fakeResult(label string, size int64, scale float64) *sizeResult {
	d := func(ms float64) []time.Duration {
		return []time.Duration{time.Duration(ms * scale * float64(time.Millisecond))}
	}
	kb := func(mb float64) int64 { return int64(mb * scale * 1024) }
	return &sizeResult{
		label: label, size: size, history: int64(float64(size) * 1.01), sessions: int(3000 * scale),
		measures: []*measure{
			{name: rowFloor, times: d(95)},
			{name: rowUsage, target: fullHistory(360 * time.Millisecond), growth: true, ours: true, times: d(480), rss: kb(115)},
			{name: rowScan, growth: true, ours: true, times: d(3000), rss: kb(260)},
			{name: rowCcusage, times: d(1670), rss: kb(247)},
			{name: "after append: list_recent_sessions", target: everySize(2 * time.Millisecond), ours: true, warm: true, times: []time.Duration{time.Millisecond}, rss: kb(131)},
		},
		answers:    []answerSize{{"coverage_stats", 3745, -1}, {"list_recent_sessions", 11686, 40001}},
		answersRSS: kb(140),
		resident:   [3]int64{kb(50), kb(64), 16 * 1024},
		session:    "3d2fbbbf-0000-0000-0000-000000000000",
		sessionMB:  103,
	}
}

func TestReportFitsAndCountsMisses(t *testing.T) {
	var b strings.Builder
	missed := report(&b, []*sizeResult{fakeResult("1GB", gib, 1), fakeResult("4GB", 4*gib, 4.4)})
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d columns:\n%s", n, l)
		}
	}
	// Per size: usage_report time, peak RSS, the ccusage and scan_secrets
	// ratios; growth: usage_report and scan_secrets in time and memory and
	// the peak RSS; one answer over the budget at each size.
	if want := 2*4 + 5 + 2; missed != want {
		t.Errorf("missed %d, want %d:\n%s", missed, want, out)
	}
	if got := strings.Count(out, "MISSED") + strings.Count(out, "OVER"); got != missed {
		t.Errorf("%d MISSED or OVER printed, %d counted:\n%s", got, missed, out)
	}
	for _, want := range []string{
		"growth 1GB -> 4GB",
		"4.40x  4.20x MISSED", // usage_report grew 4.4× against 4.2×
		"1.51 s",              // the usage_report target at 4 GB
		"150 MB",              // the peak RSS target at 4 GB
		"peak RSS per GB of history",
		"peak RSS per extra GB of history",
		"  of which file pages (shared)                16.0 MB", // RssFile does not scale
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestSizeList(t *testing.T) {
	if got, err := sizeList("1GB", "", false, ""); err != nil || strings.Join(got, ",") != "1GB" {
		t.Errorf("-size 1GB: got %v, %v", got, err)
	}
	if got, err := sizeList("1GB", " 1GB, 4GB ,", false, ""); err != nil || strings.Join(got, ",") != "1GB,4GB" {
		t.Errorf("-sizes 1GB,4GB: got %v, %v", got, err)
	}
	for _, c := range []struct {
		sizes   string
		sizeSet bool
		dir     string
	}{{"1GB,4GB", true, ""}, {",", false, ""}, {"1GB,4GB", false, "/tmp/x"}} {
		if got, err := sizeList("1GB", c.sizes, c.sizeSet, c.dir); err == nil {
			t.Errorf("sizeList(%q, size set %v, dir %q) = %v, want an error", c.sizes, c.sizeSet, c.dir, got)
		}
	}
}

// TestWriteToolPeaks holds the -tool-peaks lines: the first scan's peak,
// then each answer's with what it added to the highest peak before it.
// VmHWM comes from counters the kernel updates lazily, so a reading can be
// a little under an earlier one: it shows as negative and does not lower
// the peak the next answer is compared with.
func TestWriteToolPeaks(t *testing.T) {
	var b strings.Builder
	writeToolPeaks(&b, "1GB", 57*1024, []toolPeak{
		{"summarize_work", "defaults", 57 * 1024},
		{"summarize_work", "at max", 61 * 1024},
		{"usage_report", "at max", 60*1024 + 820},
		{"scan_secrets", "defaults", 68*1024 + 102},
	})
	want := `1GB: a server's peak RSS (VmHWM) after each answer, in the bench's order
  first scan (coverage_stats)            57.0 MB
  summarize_work         defaults        57.0 MB   +0.0
  summarize_work         at max          61.0 MB   +4.0
  usage_report           at max          60.8 MB   -0.2
  scan_secrets           defaults        68.1 MB   +7.1
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
