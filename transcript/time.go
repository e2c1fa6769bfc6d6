package transcript

import "time"

// ParseTime parses the RFC 3339 timestamps of the logs (every agent writes them) to unix milliseconds;
// 0 when absent or malformed.
func ParseTime(s string) int64 {
	if s == "" {
		return 0
	}
	// Fast path for the fixed form 2026-01-31T12:39:21.950Z.
	if len(s) == 24 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == '.' && s[23] == 'Z' {
		c, y := two(s[0], s[1])
		c1, y1 := two(s[2], s[3])
		c2, mo := two(s[5], s[6])
		c3, d := two(s[8], s[9])
		c4, h := two(s[11], s[12])
		c5, mi := two(s[14], s[15])
		c6, se := two(s[17], s[18])
		c7, ms := two(s[20], s[21])
		c8 := s[22] - '0'
		y, ms = y*100+y1, ms*10+int(c8)
		if max(c, c1, c2, c3, c4, c5, c6, c7, c8) <= 9 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && se < 61 {
			// time.Date's answer (a day past the month's end, or a 60th
			// second, runs on into the next), counted without it.
			days := daysFromCivil(y, mo) + int64(d-1)
			return ((days*24+int64(h))*60+int64(mi))*60000 + int64(se)*1000 + int64(ms)
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// two reads the digits a and b: the larger of a-'0' and b-'0' as bytes,
// at most 9 when both are digits (a byte below '0' wraps past 9), and their
// value.
func two(a, b byte) (byte, int) {
	a, b = a-'0', b-'0'
	return max(a, b), int(a)*10 + int(b)
}

// daysFromCivil is the number of days from 1970-01-01 to the first of month
// m (1 to 12) of year y (0 to 9999) in the proleptic Gregorian calendar, as
// time.Date counts them: the days of the 400-year eras before y (years
// counted from March, so that a leap day ends its year), then of the years of
// its era, then of the months since March.
func daysFromCivil(y, m int) int64 {
	if m <= 2 {
		y--
	}
	y += 400 // year -1 (January or February of year 0) in a positive era
	era := y / 400
	yoe := y - era*400 // 0 to 399
	mp := (m + 9) % 12 // months since March: 0 to 11
	doy := (153*mp + 2) / 5
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era-1)*146097 + int64(doe) - 719468
}
