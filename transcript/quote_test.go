package transcript

import "testing"

func TestClosingQuote(t *testing.T) {
	for _, tc := range []struct {
		in  string
		end int
		esc bool
	}{
		{`"abc",`, 4, false},
		{`""`, 1, false},
		{`"a\"b"`, 5, true},
		{`"a\\"b"`, 4, true},
		{`"a\\\"b"`, 7, true},
		{`"a\nb"x`, 5, true},
		{`"open`, -1, false},
		{`"\\\\"`, 5, true},
	} {
		end, esc := ClosingQuote([]byte(tc.in), 0)
		if end != tc.end || (end >= 0 && esc != tc.esc) {
			t.Errorf("ClosingQuote(%s) = %d, %v; want %d, %v", tc.in, end, esc, tc.end, tc.esc)
		}
	}
}
