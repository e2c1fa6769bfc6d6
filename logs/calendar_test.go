package logs

import (
	"fmt"
	"testing"
	"time"
	_ "time/tzdata" // the zones below on any machine
)

// TestCalendarKeys compares the calendar's cached spans with a direct lookup
// for every quarter hour of two years, in zones whose offsets change at
// midnight (Beirut, Havana), by half an hour (Lord Howe), by a whole day
// (Apia, which skipped 2011-12-30) and not at all.
func TestCalendarKeys(t *testing.T) {
	for _, name := range []string{"UTC", "America/New_York", "Asia/Beirut", "America/Havana", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kolkata"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		from := time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() / quarterMs
		until := time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() / quarterMs
		n := int(until - from)
		// Forward, as a session's buckets come, and backward.
		for _, at := range []func(i int) int64{
			func(i int) int64 { return from + int64(i) },
			func(i int) int64 { return until - 1 - int64(i) },
		} {
			checkCalendar(t, loc, n, at)
		}
	}
}

func checkCalendar(t *testing.T, loc *time.Location, n int, at func(int) int64) {
	t.Helper()
	cal := newCalendar(loc)
	changed := 0
	var last string
	for i := range n {
		q := at(i)
		tt := time.UnixMilli(q * quarterMs).In(loc)
		wy, w := tt.ISOWeek()
		want := [3]string{tt.Format("2006-01-02"), fmt.Sprintf("%04d-W%02d", wy, w), tt.Format("2006-01")}
		if got := dateKeys(cal.date(q)); got != want {
			t.Fatalf("%s %v: keys %v, want %v", loc, tt, got, want)
		}
		if want[0] != last {
			changed, last = changed+1, want[0]
		}
	}
	if changed < 730 { // 2011 and 2012 have 731 dates; Apia one fewer
		t.Errorf("%s: %d dates seen", loc, changed)
	}
}
