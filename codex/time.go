package codex

import "time"

// parseTime parses a rollout timestamp (RFC 3339, UTC with milliseconds in
// every file seen) to unix milliseconds; 0 when absent or malformed.
func parseTime(s string) int64 {
	if s == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
