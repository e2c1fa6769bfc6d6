package transcript

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestParseTimeIsTimeDate holds the fixed form's arithmetic to time.Date on
// every day of every month of the years 0 to 9999, days 29 to 31 of short
// months (which run on into the next) included, and on the clock's edges.
func TestParseTimeIsTimeDate(t *testing.T) {
	for y := 0; y <= 9999; y++ {
		for mo := 1; mo <= 12; mo++ {
			for d := 1; d <= 31; d++ {
				want := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).UnixMilli()
				if got := daysFromCivil(y, mo)*86400000 + int64(d-1)*86400000; got != want {
					t.Fatalf("%04d-%02d-%02d: %d, time.Date %d", y, mo, d, got, want)
				}
			}
		}
	}
	for _, s := range []string{
		"2026-01-31T12:39:21.950Z", "1970-01-01T00:00:00.000Z", "0000-01-01T00:00:00.000Z",
		"0000-02-29T23:59:59.999Z", "9999-12-31T23:59:60.999Z", "2024-02-30T10:00:00.001Z",
		"2026-11-30T23:59:60.500Z", "1969-12-31T23:59:59.999Z",
	} {
		var y, mo, d, h, mi, se, ms int
		fmt.Sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &y, &mo, &d, &h, &mi, &se, &ms)
		want := time.Date(y, time.Month(mo), d, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		if got := ParseTime(s); got != want {
			t.Errorf("ParseTime(%s) = %d, time.Date %d", s, got, want)
		}
	}
}

// TestParseTimeDigits: a byte that is not a digit, anywhere a digit stands
// in the fixed form (one below '0', one above '9'), leaves the fixed form to
// time.Parse, which takes none of these.
func TestParseTimeDigits(t *testing.T) {
	base := "2026-11-30T23:59:58.123Z"
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range len(base) {
		if base[i] < '0' || base[i] > '9' {
			continue
		}
		for _, c := range []byte{'/', ':', 'a', ' ', 0xff, byte('0' + rng.IntN(10))} {
			b := []byte(base)
			b[i] = c
			s := string(b)
			want := int64(0)
			if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
				want = tm.UnixMilli()
			}
			if got := ParseTime(s); got != want {
				t.Errorf("ParseTime(%q) = %d, want %d", s, got, want)
			}
		}
	}
}
