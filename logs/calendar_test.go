package logs

import (
	"fmt"
	"testing"
	"time"
	_ "time/tzdata" // the zones below on any machine
)

// TestCalendarKeys compares a bucket's date keys with a direct lookup
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
		checkCalendar(t, loc, from, until)
	}
}

func checkCalendar(t *testing.T, loc *time.Location, from, until int64) {
	t.Helper()
	changed := 0
	var last string
	for q := from; q < until; q++ {
		tt := time.UnixMilli(q * quarterMs).In(loc)
		wy, w := tt.ISOWeek()
		want := [3]string{tt.Format("2006-01-02"), fmt.Sprintf("%04d-W%02d", wy, w), tt.Format("2006-01")}
		if got := dateKeys(localDate(q, loc)); got != want {
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
