package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// maxListed bounds the drifted sessions doctor names one by one.
const maxListed = 10

// doctorCommand reports in plain words what the server sees: the roots, what
// history they hold, how long a full scan takes, and the settings in use. It
// writes to stdout (it is a command, not the server) and returns 0 when the
// server can answer questions, 1 with the reason when it cannot: the
// configuration is unusable (setupErr) or no log root exists.
func doctorCommand(ctx context.Context, a *app, setupErr error, stdout io.Writer) int {
	w := &doctorWriter{w: stdout}
	w.line("agent-activity %s doctor", version())
	if setupErr != nil {
		w.line("")
		return w.unhealthy("the configuration cannot be used: %v. Fix the variable named above and run doctor again.", setupErr)
	}
	cfg := a.cfg

	start := time.Now()
	snap, err := a.store.Snapshot(ctx, nil)
	took := time.Since(start)
	if err != nil {
		w.line("")
		return w.unhealthy("scanning the log roots failed: %v", err)
	}

	w.line("")
	w.line("Log roots (AGENT_ACTIVITY_LOG_ROOT)")
	w.roots(snap, "claude-code", "")
	w.line("")
	w.line("Codex roots (AGENT_ACTIVITY_CODEX_ROOT)")
	w.roots(snap, "codex", "off: AGENT_ACTIVITY_CODEX_ROOT is empty, so Codex sessions are not read")

	c := snap.Coverage()
	w.line("")
	w.line("History")
	w.line("  %s, %s, %s", count(c.Projects, "project"), count(c.Sessions, "session"), count(c.SubagentFiles, "subagent file"))
	w.line("  %s in %s, %s on disk; %s skipped as unreadable", count(c.Entries, "entry"), count(len(snap.Files), "transcript file"),
		bytesString(c.Bytes), count(c.SkippedLines, "line"))
	w.line("  a full scan took %s", durationString(took))
	if c.First != 0 {
		w.line("  activity from %s to %s", timeString(c.First, cfg.Location), timeString(c.Last, cfg.Location))
	}
	w.line("  Claude Code versions: %s", versionsString(c.Versions))
	w.line("  models without prices: %s", unpricedString(c.Models))
	w.line("  sessions whose log format drifted: %s", driftString(snap, c.Unverified))
	for i, s := range drifted(snap) {
		if i == maxListed {
			w.line("    … and %d more (list_recent_sessions shows schema_status for each)", c.Unverified-maxListed)
			break
		}
		w.line("    %s  %s  %s", s.ID, orDash(s.Repo), timeString(s.End, cfg.Location))
	}

	w.line("")
	w.line("Settings")
	w.line("  pricing: %s", a.pricingFrom)
	w.line("  live window: %s (a session whose newest file changed within it is live)", cfg.LiveWindow)
	w.line("  time zone: %s", zoneString(cfg.Location, cfg.Now()))
	caller := "not set (AGENT_ACTIVITY_CALLER_SESSION_ID); the newest live session counts as the caller's own"
	if cfg.CallerSessionID != "" {
		caller = cfg.CallerSessionID
	}
	w.line("  caller session: %s", caller)
	w.line("")

	if snap.RootsMissing() {
		return w.unhealthy("no configured log root exists. Set AGENT_ACTIVITY_LOG_ROOT to the folder that holds " +
			"Claude Code's projects (normally ~/.claude/projects), or run Claude Code once to create it.")
	}
	if c.Sessions == 0 {
		w.line("Healthy, but there is no history yet: tools will answer empty until Claude Code writes a session.")
		return 0
	}
	w.line("Healthy: the server can answer from %s.", count(c.Sessions, "session"))
	return 0
}

type doctorWriter struct{ w io.Writer }

// roots lists the roots of one agent with whether each exists, and the
// sessions found under the existing ones; none says why there are none.
func (d *doctorWriter) roots(snap *logs.Snapshot, agent, none string) {
	listed := false
	for _, r := range snap.Roots {
		if r.Agent != agent {
			continue
		}
		listed = true
		state := "exists"
		if !r.Exists {
			state = "does not exist"
			if agent == "codex" {
				state += " (not an error: Codex is simply not read there)"
			}
		}
		d.line("  %s: %s (machine %s)", r.Path, state, r.Machine)
	}
	if !listed {
		d.line("  %s", none)
		return
	}
	n := 0
	for _, s := range snap.Sessions {
		if s.Agent == agent {
			n++
		}
	}
	d.line("  %s found there", count(n, "session"))
}

func (d *doctorWriter) line(format string, a ...any) { fmt.Fprintf(d.w, format+"\n", a...) }

func (d *doctorWriter) unhealthy(format string, a ...any) int {
	d.line("Not healthy: "+format, a...)
	return 1
}

// count writes n with its noun, pluralized ("1 session", "3 sessions").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

func bytesString(n int64) string {
	const unit = 1024
	if n < unit {
		return count(int(n), "byte")
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB (%d bytes)", float64(n)/float64(div), "KMGTPE"[exp], n)
}

func durationString(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

func timeString(ms int64, loc *time.Location) string {
	if ms == 0 {
		return "-"
	}
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04 MST")
}

func zoneString(loc *time.Location, now time.Time) string {
	abbr, _ := now.In(loc).Zone()
	name := loc.String()
	if loc == time.Local {
		name = "local"
	}
	if name == abbr {
		return name + " (AGENT_ACTIVITY_TIMEZONE)"
	}
	return name + " (" + abbr + "; AGENT_ACTIVITY_TIMEZONE)"
}

func versionsString(v map[string]int) string {
	if len(v) == 0 {
		return "none recorded"
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return versionLess(keys[i], keys[j]) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%s)", k, count(v[k], "session"))
	}
	return strings.Join(parts, ", ")
}

// versionLess orders dotted versions numerically (2.1.63 before 2.1.328);
// parts that are not numbers compare as text.
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx == nil && erry == nil {
			return x < y
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}

func unpricedString(models map[string]*logs.Tally) string {
	var parts []string
	for _, m := range sortedModels(models) {
		t := models[m]
		if t.Cost.UnpricedResponses == 0 {
			continue
		}
		name := m
		if name == "" {
			name = "(no model name)"
		}
		parts = append(parts, fmt.Sprintf("%s (%s, %s)", name, count(int(t.Cost.UnpricedResponses), "response"),
			count(int(t.Total()), "token")))
	}
	if len(parts) == 0 {
		return "none; every model seen has a price"
	}
	return strings.Join(parts, ", ") + "; their cost shows as partial or unknown (add them with AGENT_ACTIVITY_PRICING_FILE)"
}

func sortedModels(m map[string]*logs.Tally) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func driftString(snap *logs.Snapshot, n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("%d of %d; their answers are marked schema_status \"unverified\"", n, len(snap.Sessions))
}

func drifted(snap *logs.Snapshot) []*logs.Session {
	var out []*logs.Session
	for _, s := range snap.Sessions {
		if s.Unverified {
			out = append(out, s)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
