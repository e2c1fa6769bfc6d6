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
		y, ok1 := atoi(s[0:4])
		mo, ok2 := atoi(s[5:7])
		d, ok3 := atoi(s[8:10])
		h, ok4 := atoi(s[11:13])
		mi, ok5 := atoi(s[14:16])
		se, ok6 := atoi(s[17:19])
		ms, ok7 := atoi(s[20:23])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h < 24 && mi < 60 && se < 61 {
			return time.Date(y, time.Month(mo), d, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

func atoi(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
