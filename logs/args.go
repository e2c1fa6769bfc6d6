package logs

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Agents are the names of the agents whose history this program reads, as
// sessions carry them in Session.Agent.
var Agents = []string{"claude-code", "codex"}

// CheckAgent validates an agent filter: "" (every agent) or one of Agents.
func CheckAgent(agent string) error {
	if agent == "" || slices.Contains(Agents, agent) {
		return nil
	}
	return InvalidArgument("agent", "agent must be one of %s; got %q", strings.Join(Agents, ", "), clipArg(agent))
}

// TimeRange is a half-open interval [Since, Until) in unix milliseconds; a zero
// bound is open.
type TimeRange struct {
	Since, Until int64
}

// Contains reports whether t (unix ms) is inside the range.
func (r TimeRange) Contains(t int64) bool {
	return (r.Since == 0 || t >= r.Since) && (r.Until == 0 || t < r.Until)
}

// Overlaps reports whether [start, end] touches the range.
func (r TimeRange) Overlaps(start, end int64) bool {
	if start == 0 && end == 0 {
		return r.Since == 0 && r.Until == 0
	}
	return (r.Since == 0 || end >= r.Since) && (r.Until == 0 || start < r.Until)
}

// ParseTimeRange parses since/until arguments: an RFC 3339 time; a date
// (YYYY-MM-DD, that whole day in loc); "today", "yesterday"; or a duration back
// from now ("24h", "90m", "7d", "2w"). since is inclusive; until is exclusive
// for times and inclusive for dates (a date until means the end of that day).
func ParseTimeRange(since, until string, now time.Time, loc *time.Location) (TimeRange, error) {
	var r TimeRange
	if since != "" {
		t, err := parseTimeArg("since", since, now, loc, false)
		if err != nil {
			return r, err
		}
		r.Since = t.UnixMilli()
	}
	if until != "" {
		t, err := parseTimeArg("until", until, now, loc, true)
		if err != nil {
			return r, err
		}
		r.Until = t.UnixMilli()
	}
	if r.Since != 0 && r.Until != 0 && r.Until <= r.Since {
		return r, InvalidArgument("until", "until (%s) must be after since (%s)", until, since)
	}
	return r, nil
}

func parseTimeArg(name, v string, now time.Time, loc *time.Location, isUntil bool) (time.Time, error) {
	v = strings.TrimSpace(v)
	day := func(d time.Time) time.Time {
		y, m, dd := d.In(loc).Date()
		start := time.Date(y, m, dd, 0, 0, 0, 0, loc)
		if isUntil {
			return start.AddDate(0, 0, 1)
		}
		return start
	}
	switch strings.ToLower(v) {
	case "today":
		return day(now), nil
	case "yesterday":
		return day(now.In(loc).AddDate(0, 0, -1)), nil
	case "now":
		return now, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", v, loc); err == nil {
		return day(t), nil
	}
	if d, ok := parseDurationArg(v); ok {
		return now.Add(-d), nil
	}
	return time.Time{}, InvalidArgument(name, "%s must be an RFC 3339 time (2026-11-28T09:00:00Z), a date (2026-11-28), \"today\", \"yesterday\", or a duration back from now (24h, 7d); got %q", name, clipArg(v))
}

func parseDurationArg(v string) (time.Duration, bool) {
	if len(v) < 2 {
		return 0, false
	}
	unit := v[len(v)-1]
	n, err := strconv.ParseFloat(v[:len(v)-1], 64)
	if err == nil && n > 0 && n < 1e6 {
		switch unit {
		case 'd':
			return time.Duration(n * float64(24*time.Hour)), true
		case 'w':
			return time.Duration(n * float64(7*24*time.Hour)), true
		}
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}
