package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// configVars are every variable setup reads.
var configVars = []string{"AGENT_ACTIVITY_LOG_ROOT", "AGENT_ACTIVITY_CODEX_ROOT", "AGENT_ACTIVITY_PRICING_FILE",
	"AGENT_ACTIVITY_CALLER_SESSION_ID", "AGENT_ACTIVITY_TIMEZONE", "AGENT_ACTIVITY_LIVE_WINDOW", "AGENT_ACTIVITY_NOW"}

// withEnv sets exactly the given AGENT_ACTIVITY_* variables for one test;
// the others are unset (empty would count as set), except Codex, off
// unless named: no test reads a real ~/.codex.
func withEnv(t *testing.T, kv ...string) {
	t.Helper()
	for _, k := range configVars {
		t.Setenv(k, "") // restores the old value after the test
		os.Unsetenv(k)
	}
	t.Setenv("AGENT_ACTIVITY_CODEX_ROOT", "")
	for i := 0; i+1 < len(kv); i += 2 {
		t.Setenv(kv[i], kv[i+1])
	}
}

func runDoctor(t *testing.T) (int, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"doctor"}, strings.NewReader(""), &stdout, &stderr, time.Now)
	if stderr.Len() != 0 {
		t.Errorf("doctor wrote to stderr: %q", stderr.String())
	}
	return code, stdout.String()
}

var (
	scanTime    = regexp.MustCompile(`a full scan took [0-9.]+[µnm]?s`)
	versionLine = regexp.MustCompile(`^agent-activity \S+ doctor`)
)

func TestDoctorFixture(t *testing.T) {
	root := fixtureRoot(t)
	withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", root, "AGENT_ACTIVITY_NOW", fixedNow, "AGENT_ACTIVITY_TIMEZONE", "UTC")
	code, out := runDoctor(t)
	if code != 0 {
		t.Fatalf("code %d, want 0:\n%s", code, out)
	}
	out = strings.ReplaceAll(out, root, "ROOT")
	out = scanTime.ReplaceAllString(out, "a full scan took T")
	out = versionLine.ReplaceAllString(out, "agent-activity V doctor")
	pricingLine := regexp.MustCompile(`pricing: built-in \(checked \d{4}-\d{2}-\d{2}\)`)
	if !pricingLine.MatchString(out) {
		t.Errorf("no built-in pricing source line in:\n%s", out)
	}
	out = pricingLine.ReplaceAllString(out, "pricing: built-in (checked D)")
	const want = `agent-activity V doctor

Log roots (AGENT_ACTIVITY_LOG_ROOT)
  ROOT: exists (machine local)
  27 sessions found there

Codex roots (AGENT_ACTIVITY_CODEX_ROOT)
  off: AGENT_ACTIVITY_CODEX_ROOT is empty, so Codex sessions are not read

History
  22 projects, 27 sessions, 4 subagent files
  217 entries in 31 transcript files, 148.8 KiB (152375 bytes) on disk; 3 lines skipped as unreadable
  a full scan took T
  activity from 2026-11-20 09:00 UTC to 2026-11-29 11:01 UTC
  Claude Code versions: 1.0.51 (1 session), 2.0.58 (2 sessions), 2.1.27 (1 session), 2.1.63 (1 session), 2.1.72 (2 sessions), 2.1.90 (18 sessions), 2.1.328 (2 sessions)
  models without prices: mystery-model-9 (1 response, 1930 tokens); their cost shows as partial or unknown (add them with AGENT_ACTIVITY_PRICING_FILE)
  sessions whose log format drifted: 2 of 27; their answers are marked schema_status "unverified"
    12f06f21-b807-4b6c-8166-bb5e210f4b5f  malformed  2026-11-29 09:00 UTC
    2c3a2877-032d-47c4-9e34-09b574d3e329  nocwdrepo  2026-11-27 09:00 UTC

Settings
  pricing: built-in (checked D)
  live window: 10m0s (a session whose newest file changed within it is live)
  time zone: UTC (AGENT_ACTIVITY_TIMEZONE)
  caller session: not set (AGENT_ACTIVITY_CALLER_SESSION_ID); the newest live session counts as the caller's own

Healthy: the server can answer from 27 sessions.
`
	if out != want {
		t.Errorf("doctor output:\n%s\nwant:\n%s", out, want)
	}
}

func TestDoctorSettings(t *testing.T) {
	root := fixtureRoot(t)
	pricing := filepath.Join(t.TempDir(), "prices.json")
	os.WriteFile(pricing, []byte(`{"mystery-model-9": {"input": 1, "output": 2}}`), 0o600)
	missing := filepath.Join(t.TempDir(), "elsewhere")
	withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", "desk="+missing+string(os.PathListSeparator)+root, "AGENT_ACTIVITY_NOW", fixedNow,
		"AGENT_ACTIVITY_TIMEZONE", "America/New_York", "AGENT_ACTIVITY_LIVE_WINDOW", "90s",
		"AGENT_ACTIVITY_PRICING_FILE", pricing, "AGENT_ACTIVITY_CALLER_SESSION_ID", "dae68d1d-9462-4262-8e64-9f368a38164f")
	code, out := runDoctor(t)
	if code != 0 {
		t.Fatalf("one of two roots exists: code %d, want 0:\n%s", code, out)
	}
	for _, want := range []string{
		missing + ": does not exist (machine desk)",
		root + ": exists (machine local)",
		"pricing: built-in (checked ",
		" + override " + pricing + " (1 entry)",
		"models without prices: none; every model seen has a price",
		"live window: 1m30s",
		"time zone: America/New_York (EST; AGENT_ACTIVITY_TIMEZONE)",
		"activity from 2026-11-20 04:00 EST",
		"caller session: dae68d1d-9462-4262-8e64-9f368a38164f",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorUnhealthy(t *testing.T) {
	badPricing := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(badPricing, []byte(`{"claude-x": {"input": "cheap"}}`), 0o600)
	missing := filepath.Join(t.TempDir(), "nope")
	cases := []struct {
		name   string
		env    []string
		reason string
	}{
		{"no root", []string{"AGENT_ACTIVITY_LOG_ROOT", missing}, "Not healthy: no configured log root exists"},
		{"unreadable pricing file", []string{"AGENT_ACTIVITY_LOG_ROOT", missing, "AGENT_ACTIVITY_PRICING_FILE", "/nonexistent/p.json"},
			"Not healthy: the configuration cannot be used: AGENT_ACTIVITY_PRICING_FILE cannot be read"},
		{"malformed pricing file", []string{"AGENT_ACTIVITY_PRICING_FILE", badPricing},
			"Not healthy: the configuration cannot be used: pricing: override " + badPricing},
		{"bad zone", []string{"AGENT_ACTIVITY_TIMEZONE", "Mars/Olympus"},
			`Not healthy: the configuration cannot be used: AGENT_ACTIVITY_TIMEZONE "Mars/Olympus"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withEnv(t, c.env...)
			code, out := runDoctor(t)
			if code != 1 || !strings.Contains(out, c.reason) {
				t.Errorf("code %d, want 1 with %q:\n%s", code, c.reason, out)
			}
		})
	}
	t.Run("no root lists it", func(t *testing.T) {
		withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", missing)
		if _, out := runDoctor(t); !strings.Contains(out, missing+": does not exist") {
			t.Errorf("the missing root is not named:\n%s", out)
		}
	})
}

func TestDoctorEmptyRoot(t *testing.T) {
	withEnv(t, "AGENT_ACTIVITY_LOG_ROOT", t.TempDir())
	code, out := runDoctor(t)
	if code != 0 || !strings.Contains(out, "0 sessions") || !strings.Contains(out, "no history yet") {
		t.Errorf("empty root: code %d\n%s", code, out)
	}
}

func TestVersionLess(t *testing.T) {
	ordered := []string{"1.0.51", "2.0.9", "2.0.58", "2.1.63", "2.1.328", "2.1.328.1", "10.0.0"}
	for i := 0; i+1 < len(ordered); i++ {
		if !versionLess(ordered[i], ordered[i+1]) || versionLess(ordered[i+1], ordered[i]) {
			t.Errorf("%s should sort before %s", ordered[i], ordered[i+1])
		}
	}
}
