package logs

// Fixture tests: the hand-built log tree in testdata/projects against the
// hand-computed figures of testdata/EXPECTED.md (rules: SPEC §3 and §5).
//
// Where this file deliberately departs from EXPECTED.md, a comment says why.
// The one known departure is case 2: EXPECTED.md assumed "claude-opus-4.6-1m"
// unpriced, but the built-in pricing.json prices it (normalized to
// claude-opus-4-6 by prefix at a '-' boundary, SPEC §5), so every figure that
// includes case 2's cost is recomputed here by hand from pricing.json.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
)

// fxNow is the fixed clock of every fixture test.
var fxNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	fxLiveTornProject = "-home-dev-live-torn"
	fxLiveTornID      = "6daad52f-20f8-404a-b16f-92d91a4d284e"
)

// fxTree copies testdata/projects into a temp dir, giving each .jsonl its
// newest timestamp as mtime (a checkout makes every file look live).
func fxTree(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := fixture.CopyTree(filepath.Join("..", "testdata", "projects"), dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// fxLiveNow is a clock just after case 5's last line: with a fresh mtime the
// session is live then (a live session's lines are recent too, SPEC §3).
var fxLiveNow = time.Date(2026, 11, 22, 9, 1, 0, 0, time.UTC)

// fxMakeLive sets case 5's transcript mtime to one minute before fxLiveNow.
func fxMakeLive(t *testing.T, root string) {
	t.Helper()
	p := filepath.Join(root, fxLiveTornProject, fxLiveTornID+".jsonl")
	mt := fxLiveNow.Add(-time.Minute)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func fxSnapshot(t *testing.T, root string, loc *time.Location) *Snapshot {
	t.Helper()
	return fxSnapshotAt(t, root, loc, fxNow)
}

func fxSnapshotAt(t *testing.T, root string, loc *time.Location, now time.Time) *Snapshot {
	t.Helper()
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return now }, Pricing: testPricing(t),
		Location: loc, LiveWindow: 10 * time.Minute})
	sn, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return sn
}

func fxSession(t *testing.T, sn *Snapshot, project, id string) *Session {
	t.Helper()
	for _, s := range sn.Sessions {
		if s.Project == project && s.ID == id {
			return s
		}
	}
	t.Fatalf("session %s/%s not found", project, id)
	return nil
}

// fxU builds a Usage: in, out, 5-minute cache creation, 1-hour cache creation, cache read.
func fxU(in, out, c5, c1, cr int64) Usage {
	return Usage{Input: in, Output: out, CacheCreate5m: c5, CacheCreate1h: c1, CacheRead: cr}
}

func fxUsd(c interface{ USD() float64 }) string { return fmt.Sprintf("%.6f", c.USD()) }

func fxTime(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }

// fxOC builds an OutcomeCounts from ok, error, rejected, pending, in_progress.
func fxOC(ok, errs, rej, pend, inprog int) OutcomeCounts {
	return OutcomeCounts{OK: ok, Error: errs, Rejected: rej, Pending: pend, InProgress: inprog,
		Total: ok + errs + rej + pend + inprog}
}

type fxPart struct {
	usage Usage
	cost  string // USD to 6 decimals
}

type fxCase struct {
	name, project, id string
	repo, branch      string
	title, prompt     string
	start, end        string
	msgs, subagents   int
	apiErrors         int
	skipped           int // with the session not live
	status            string
	total             fxPart
	costStatus        string
	unpriced          []string
	main, side        *fxPart // nil: main = total, sidechain empty
	calls             map[string]OutcomeCounts
	mainCalls         *OutcomeCounts // nil: every call is main
	sideCalls         *OutcomeCounts
}

var fxCases = []fxCase{
	{name: "1 split-usage", project: "-home-dev-split-usage", id: "dae68d1d-9462-4262-8e64-9f368a38164f",
		repo: "split-usage", branch: "main",
		title: "Add a retry helper to the HTTP client and run the tests", prompt: "Add a retry helper to the HTTP client and run the tests",
		start: "2026-11-20T09:00:00.000Z", end: "2026-11-20T09:00:09.000Z", msgs: 3,
		total: fxPart{fxU(4, 282, 2300, 0, 22000), "0.019467"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(1, 0, 0, 0, 0)}},
	// EXPECTED.md says cost 0 / unknown / unpriced ["claude-opus-4.6-1m"], under the
	// assumption that no table key prefixes it. pricing.json has "claude-opus-4-6"
	// and Normalize turns "4.6" into "4-6", so it is priced by prefix at the '-'
	// boundary before "1m" (SPEC §5): 5 / 25 / 6.25 / 0.50 per MTok (all 5m writes):
	// 8×5 + 460×25 + 1900×6.25 + 41500×0.5 = 40 + 11500 + 11875 + 20750 = 44,165 µ$.
	{name: "2 proxy", project: "-home-dev-proxy-gateway", id: "93b68747-efaf-44a2-bb0d-3d4ca82016ac",
		repo: "proxy-gateway", branch: "HEAD",
		title: "Read the README and tell me how the gateway is configured", prompt: "Read the README and tell me how the gateway is configured",
		start: "2026-11-20T14:00:00.000Z", end: "2026-11-20T14:00:08.000Z", msgs: 3,
		total: fxPart{fxU(8, 460, 1900, 0, 41500), "0.044165"},
		calls: map[string]OutcomeCounts{"Read": fxOC(1, 0, 0, 0, 0)}},
	{name: "3A shared-msg", project: "-home-dev-shared-msg", id: "9aafd7b4-3ccd-47c2-a842-66120f849c24",
		repo: "shared-msg", branch: "main",
		title: "Summarise CHANGELOG.md for the 3.0 release", prompt: "Summarise CHANGELOG.md for the 3.0 release",
		start: "2026-11-21T10:00:00.000Z", end: "2026-11-21T10:01:06.000Z", msgs: 4,
		total: fxPart{fxU(18, 500, 1200, 0, 11000), "0.005118"}},
	{name: "3B shared-msg replay", project: "-home-dev-shared-msg", id: "923a7c50-1b0f-46fe-ad58-199fa2dfca46",
		repo: "shared-msg", branch: "main",
		title: "Continue: draft the 3.0 release notes from that list", prompt: "Continue: draft the 3.0 release notes from that list",
		start: "2026-11-21T10:00:05.000Z", end: "2026-11-21T14:00:07.000Z", msgs: 4,
		total: fxPart{fxU(12, 250, 500, 0, 7000), "0.002587"}},
	{name: "4 outcomes", project: "-home-dev-outcomes", id: "b86f27bf-78c6-43a8-9320-d1ee97d26b45",
		repo: "outcomes", branch: "main",
		title: "Build the project and fix the failing tests", prompt: "Build the project and fix the failing tests",
		start: "2026-11-21T16:00:00.000Z", end: "2026-11-21T16:06:04.000Z", msgs: 11,
		total: fxPart{fxU(10, 670, 1900, 0, 64200), "0.036465"},
		calls: map[string]OutcomeCounts{
			"Bash": fxOC(1, 1, 1, 0, 0), "Read": fxOC(1, 0, 0, 0, 0), "Edit": fxOC(0, 0, 1, 0, 0),
			"Write": fxOC(0, 0, 1, 0, 0), "Grep": fxOC(0, 0, 0, 1, 0)}},
	// Not-live reading here; the live reading is TestFixtureLiveTorn.
	{name: "5 live-torn (finished reading)", project: fxLiveTornProject, id: fxLiveTornID,
		repo: "live-torn", branch: "main",
		title: "Check the repo state and open the config", prompt: "Check the repo state and open the config",
		start: "2026-11-22T09:00:00.000Z", end: "2026-11-22T09:00:06.000Z", msgs: 3, skipped: 1,
		total: fxPart{fxU(4, 130, 548, 0, 8600), "0.006597"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(1, 0, 0, 0, 0), "Read": fxOC(0, 0, 0, 1, 0)}},
	{name: "6 finished-torn", project: "-home-dev-finished-torn", id: "5ac9683b-b313-46be-8cef-79c8f0940239",
		repo: "finished-torn", branch: "main",
		title: "What does the Makefile's release target do?", prompt: "What does the Makefile's release target do?",
		start: "2026-11-22T11:00:00.000Z", end: "2026-11-22T11:00:04.000Z", msgs: 2, skipped: 1,
		total: fxPart{fxU(2, 75, 400, 0, 3000), "0.003531"}},
	{name: "7a nested sidechains", project: "-home-dev-sidechain-nested", id: "f9733c8b-747a-4242-90be-4b8631751842",
		repo: "sidechain-nested", branch: "main",
		title: "Find where the rate limiter is configured", prompt: "Find where the rate limiter is configured",
		start: "2026-11-22T15:00:00.000Z", end: "2026-11-22T15:05:00.100Z", msgs: 3, subagents: 2,
		total:     fxPart{fxU(16, 1520, 12800, 0, 55400), "0.096192"},
		main:      &fxPart{fxU(6, 390, 3800, 0, 27000), "0.047030"},
		side:      &fxPart{fxU(10, 1130, 9000, 0, 28400), "0.049162"},
		calls:     map[string]OutcomeCounts{"Agent": fxOC(1, 0, 0, 0, 0), "Grep": fxOC(1, 0, 0, 0, 0), "Read": fxOC(1, 0, 0, 0, 0)},
		mainCalls: &OutcomeCounts{OK: 1, Total: 1}, sideCalls: &OutcomeCounts{OK: 2, Total: 2}},
	{name: "7b legacy sidechains", project: "-home-dev-sidechain-legacy", id: "442ae068-4c41-46b9-aca2-cb3796e74030",
		repo: "sidechain-legacy", branch: "",
		title: "Explore the auth module and list its entry points", prompt: "Explore the auth module and list its entry points",
		start: "2026-11-23T08:59:58.000Z", end: "2026-11-23T09:00:14.000Z", msgs: 3, subagents: 2,
		total:     fxPart{fxU(2808, 717, 7400, 0, 16500), "0.037273"},
		main:      &fxPart{fxU(5, 400, 3100, 0, 12500), "0.021390"},
		side:      &fxPart{fxU(2803, 317, 4300, 0, 4000), "0.015883"},
		calls:     map[string]OutcomeCounts{"Task": fxOC(1, 0, 0, 0, 0), "Glob": fxOC(1, 0, 0, 0, 0)},
		mainCalls: &OutcomeCounts{OK: 1, Total: 1}, sideCalls: &OutcomeCounts{OK: 1, Total: 1}},
	{name: "7b bystander", project: "-home-dev-sidechain-legacy", id: "1c6ce900-f9c0-494c-a825-13ba5f5269b5",
		repo: "sidechain-legacy", branch: "",
		title: "What does `make lint` run?", prompt: "What does `make lint` run?",
		start: "2026-11-23T11:00:00.000Z", end: "2026-11-23T11:00:04.000Z", msgs: 2,
		total: fxPart{fxU(5, 60, 200, 0, 5000), "0.003165"}},
	{name: "7c inline sidechain", project: "-home-dev-sidechain-inline", id: "e1305d0f-8d43-4064-93b9-5cb18680f246",
		repo: "sidechain-inline", branch: "main",
		title: "Audit the logging calls in cmd/", prompt: "Audit the logging calls in cmd/",
		start: "2026-11-23T13:00:00.000Z", end: "2026-11-23T13:00:12.000Z", msgs: 3,
		total:     fxPart{fxU(10, 570, 4600, 0, 10000), "0.028830"},
		main:      &fxPart{fxU(6, 270, 2000, 0, 7600), "0.013848"},
		side:      &fxPart{fxU(4, 300, 2600, 0, 2400), "0.014982"},
		calls:     map[string]OutcomeCounts{"Task": fxOC(1, 0, 0, 0, 0), "Grep": fxOC(1, 0, 0, 0, 0)},
		mainCalls: &OutcomeCounts{OK: 1, Total: 1}, sideCalls: &OutcomeCounts{OK: 1, Total: 1}},
	{name: "8 cache-split", project: "-home-dev-cache-split", id: "ebe31d4a-d76d-4ad5-80df-56dfb2004fb7",
		repo: "cache-split", branch: "main",
		title: "Explain the cache eviction policy in cache/lru.go", prompt: "Explain the cache eviction policy in cache/lru.go",
		start: "2026-11-23T16:00:00.000Z", end: "2026-11-23T16:01:12.000Z", msgs: 5,
		total: fxPart{fxU(6, 350, 4800, 8000, 22000), "0.077868"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(1, 0, 0, 0, 0)}},
	{name: "9 models", project: "-home-dev-models-mix", id: "ff44a745-9e3a-4394-961c-8a336a6482f9",
		repo: "models-mix", branch: "main",
		title: "Which HTTP router does this service use?", prompt: "Which HTTP router does this service use?",
		start: "2026-11-24T09:00:00.000Z", end: "2026-11-24T09:03:06.000Z", msgs: 8, apiErrors: 1,
		total:      fxPart{fxU(60, 600, 2000, 0, 6000), "0.014980"},
		costStatus: "partial", unpriced: []string{"mystery-model-9"}},
	{name: "10 above-200k", project: "-home-dev-above-200k", id: "49510962-1dba-4100-8d5c-3b87a19d28f2",
		repo: "above-200k", branch: "main",
		title: "Review the whole generated schema file for inconsistencies", prompt: "Review the whole generated schema file for inconsistencies",
		start: "2026-11-24T11:00:00.000Z", end: "2026-11-24T11:10:25.000Z", msgs: 6,
		total: fxPart{fxU(3005, 1700, 18000, 0, 579500), "0.442233"}},
	{name: "11 no-cwd", project: "-home-dev-nocwdrepo", id: "2c3a2877-032d-47c4-9e34-09b574d3e329",
		repo: "nocwdrepo", branch: "main", status: "unverified",
		title: "Why is the build cache so large?", prompt: "Why is the build cache so large?",
		start: "2026-11-27T09:00:00.000Z", end: "2026-11-27T09:00:05.000Z", msgs: 2,
		total: fxPart{fxU(4, 80, 400, 0, 2000), "0.003312"}},
	{name: "12 twin 5d2b", project: "-home-dev-prefix-twins", id: "a7c31e58-5d2b-4f6e-9c1a-3e8b7d604f21",
		repo: "prefix-twins", branch: "main",
		title: "Rename the twin package to pair", prompt: "Rename the twin package to pair",
		start: "2026-11-27T10:00:00.000Z", end: "2026-11-27T10:00:04.000Z", msgs: 2,
		total: fxPart{fxU(5, 50, 400, 0, 1000), "0.000855"}},
	{name: "12 twin b40e", project: "-home-dev-prefix-twins", id: "a7c31e58-b40e-4a97-8d35-c1f2e9a07b6d",
		repo: "prefix-twins", branch: "main",
		title: "Update the README for the pair package", prompt: "Update the README for the pair package",
		start: "2026-11-27T11:00:00.000Z", end: "2026-11-27T11:00:03.000Z", msgs: 2,
		total: fxPart{fxU(6, 70, 800, 0, 2000), "0.001556"}},
	{name: "13 WSL folder", project: "-mnt-c-Users-dev-twin", id: "4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb",
		repo: "twin", branch: "main",
		title: "From WSL: why does make fail on line endings?", prompt: "From WSL: why does make fail on line endings?",
		start: "2026-11-24T06:00:00.000Z", end: "2026-11-24T06:00:05.000Z", msgs: 2,
		total: fxPart{fxU(3, 90, 1200, 0, 4000), "0.007059"}},
	{name: "13 Windows folder", project: "C--Users-dev-twin", id: "4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb",
		repo: "twin", branch: "main",
		title: "From Windows: list the scripts folder", prompt: "From Windows: list the scripts folder",
		start: "2026-11-24T07:00:00.000Z", end: "2026-11-24T07:00:09.000Z", msgs: 3,
		total: fxPart{fxU(5, 150, 1000, 0, 11000), "0.009315"},
		calls: map[string]OutcomeCounts{"PowerShell": fxOC(1, 0, 0, 0, 0)}},
	// title / prompt: checked by prefix below (the raw line-1 text holds planted secrets;
	// redaction happens in the tools layer, not here).
	{name: "14 not-prompts", project: "-home-dev-not-prompts", id: "ef20c899-eb9a-4341-aa3f-3b72e6bcaa83",
		repo: "not-prompts", branch: "main",
		title: "Set up a deploy script for staging.", prompt: "Set up a deploy script for staging.",
		start: "2026-11-27T14:00:00.000Z", end: "2026-11-27T14:21:08.000Z", msgs: 7,
		total: fxPart{fxU(10, 535, 7720, 0, 30100), "0.046035"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(1, 0, 0, 0, 0), "Write": fxOC(1, 0, 0, 0, 0)}},
	{name: "15 T1 summary title", project: "-home-dev-titles", id: "45aa96c3-96eb-495c-b706-e5c9a352a604",
		repo: "titles", branch: "main",
		title: "Move API client into src/lib", prompt: "Move the API client from src/api.ts into src/lib/api.ts and update imports",
		start: "2026-11-28T09:00:00.000Z", end: "2026-11-28T09:01:12.000Z", msgs: 7,
		total: fxPart{fxU(8, 1040, 3600, 0, 49800), "0.073440"},
		calls: map[string]OutcomeCounts{"TodoWrite": fxOC(2, 0, 0, 0, 0), "Read": fxOC(1, 0, 0, 0, 0),
			"Write": fxOC(1, 0, 0, 0, 0), "Edit": fxOC(1, 0, 0, 0, 0)}},
	{name: "15 T2 custom title", project: "-home-dev-titles", id: "d90d2c62-389b-4b90-97fa-36c0ca75219f",
		repo: "titles", branch: "main",
		title: "webhook-flake-hunt", prompt: "Fix the flaky webhook test in test/webhooks.test.ts",
		start: "2026-11-28T13:00:00.000Z", end: "2026-11-28T13:00:15.000Z", msgs: 4,
		total: fxPart{fxU(5, 370, 2300, 0, 21600), "0.034450"},
		calls: map[string]OutcomeCounts{"Read": fxOC(1, 0, 0, 0, 0), "Edit": fxOC(1, 0, 0, 0, 0)}},
	{name: "16 cost-state agree", project: "-home-dev-cost-state", id: "cd7186a3-a1fd-433b-a217-978247bfe863",
		repo: "cost-state", branch: "HEAD",
		title: "Add a --dry-run flag to the sync command", prompt: "Add a --dry-run flag to the sync command",
		start: "2026-11-28T16:00:00.000Z", end: "2026-11-28T16:00:11.000Z", msgs: 3,
		total: fxPart{fxU(8, 360, 0, 5300, 45000), "0.058632"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(1, 0, 0, 0, 0)}},
	{name: "16 cost-state differ", project: "-home-dev-cost-state", id: "afc10e89-9d9d-49f9-9aec-e759ea1d8849",
		repo: "cost-state", branch: "HEAD",
		title: "What does internal/sync/plan.go do?", prompt: "What does internal/sync/plan.go do?",
		start: "2026-11-28T18:00:00.000Z", end: "2026-11-28T18:01:09.000Z", msgs: 5,
		total: fxPart{fxU(6, 520, 0, 2300, 34200), "0.035664"},
		calls: map[string]OutcomeCounts{"Read": fxOC(1, 0, 0, 0, 0)}},
	{name: "17 malformed", project: "-home-dev-malformed", id: "12f06f21-b807-4b6c-8166-bb5e210f4b5f",
		repo: "malformed", branch: "main", status: "unverified", skipped: 1,
		title: "Rename the config loader to readConfig", prompt: "Rename the config loader to readConfig",
		start: "2026-11-29T09:00:00.000Z", end: "2026-11-29T09:00:14.000Z", msgs: 3,
		total: fxPart{fxU(4, 110, 1000, 0, 4800), "0.006852"}},
	{name: "18 midnight", project: "-home-dev-midnight", id: "7e0c78e0-857c-4cb9-b505-84bae6004906",
		repo: "midnight", branch: "main",
		title: "Start the nightly data migration dry run", prompt: "Start the nightly data migration dry run",
		start: "2026-11-25T22:29:55.000Z", end: "2026-11-26T01:30:00.000Z", msgs: 8,
		total: fxPart{fxU(100, 1000, 4200, 0, 7400), "0.033270"}},
	{name: "19 spill", project: "-home-dev-spill", id: "2d5fd24a-6e26-4039-80e5-cfac5f4e2d2d",
		repo: "spill", branch: "main",
		title: "Why is the integration suite slow? Dump the full test log.", prompt: "Why is the integration suite slow? Dump the full test log.",
		start: "2026-11-29T11:00:00.000Z", end: "2026-11-29T11:01:40.000Z", msgs: 4,
		total: fxPart{fxU(5, 290, 1900, 0, 14800), "0.015930"},
		calls: map[string]OutcomeCounts{"Bash": fxOC(2, 0, 0, 0, 0)}},
}

func fxCheckPart(t *testing.T, what string, got Tally, want fxPart) {
	t.Helper()
	g := got.Usage
	g.Fast = false
	if g != want.usage {
		t.Errorf("%s usage = %+v (total %d), want %+v (total %d)", what, g, g.Total(), want.usage, want.usage.Total())
	}
	if c := fxUsd(got.Cost); c != want.cost {
		t.Errorf("%s cost = $%s, want $%s", what, c, want.cost)
	}
}

func TestFixtureSessions(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	if got := len(sn.Sessions); got != 27 {
		t.Errorf("sessions = %d, want 27", got)
	}
	for _, c := range fxCases {
		t.Run(c.name, func(t *testing.T) {
			s := fxSession(t, sn, c.project, c.id)
			live := sn.IsLive(s)
			if live {
				t.Errorf("is_live = true, want false (fixture mtimes are the newest timestamp)")
			}
			if s.Repo != c.repo {
				t.Errorf("repo = %q, want %q", s.Repo, c.repo)
			}
			if s.GitBranch != c.branch {
				t.Errorf("git_branch = %q, want %q", s.GitBranch, c.branch)
			}
			if strings.HasPrefix(c.name, "14 ") {
				if !strings.HasPrefix(s.FirstPrompt(), c.prompt) || s.Title != s.FirstPrompt() {
					t.Errorf("first_prompt = %q, title = %q; want the line-1 prompt starting %q as both", s.FirstPrompt(), s.Title, c.prompt)
				}
			} else {
				if s.Title != c.title {
					t.Errorf("title = %q, want %q", s.Title, c.title)
				}
				if s.FirstPrompt() != c.prompt {
					t.Errorf("first_prompt = %q, want %q", s.FirstPrompt(), c.prompt)
				}
			}
			if got := fxTime(s.Start); got != c.start {
				t.Errorf("start = %s, want %s", got, c.start)
			}
			if got := fxTime(s.End); got != c.end {
				t.Errorf("end = %s, want %s", got, c.end)
			}
			if s.MessageCount != c.msgs {
				t.Errorf("message_count = %d, want %d", s.MessageCount, c.msgs)
			}
			if got := len(s.Subagents); got != c.subagents {
				t.Errorf("subagent_count = %d, want %d", got, c.subagents)
			}
			if s.APIErrors != c.apiErrors {
				t.Errorf("api_errors = %d, want %d", s.APIErrors, c.apiErrors)
			}
			if got := s.SkippedLines(live); got != c.skipped {
				t.Errorf("skipped_lines = %d, want %d", got, c.skipped)
			}
			status := c.status
			if status == "" {
				status = "verified"
			}
			if got := s.SchemaStatus(); got != status {
				t.Errorf("schema_status = %q, want %q", got, status)
			}

			fxCheckPart(t, "total", s.Usage.Total, c.total)
			main, side := c.total, fxPart{cost: "0.000000"}
			if c.main != nil {
				main, side = *c.main, *c.side
			}
			fxCheckPart(t, "main", s.Usage.Main, main)
			fxCheckPart(t, "sidechain", s.Usage.Sidechain, side)
			cs := c.costStatus
			if cs == "" {
				cs = "estimated"
			}
			if got := s.Usage.Total.Cost.Status(); got != cs {
				t.Errorf("cost_status = %q, want %q", got, cs)
			}
			if got := s.Usage.Total.Cost.UnpricedModels(); !reflect.DeepEqual(got, c.unpriced) {
				t.Errorf("unpriced_models = %v, want %v", got, c.unpriced)
			}

			st := CountCalls(s, live)
			var want OutcomeCounts
			gotPer := map[string]OutcomeCounts{}
			for name, o := range st.PerTool {
				gotPer[name] = *o
			}
			wantPer := c.calls
			if wantPer == nil {
				wantPer = map[string]OutcomeCounts{}
			}
			for _, o := range wantPer {
				want = fxAddOC(want, o)
			}
			if !reflect.DeepEqual(gotPer, wantPer) {
				t.Errorf("per_tool = %+v, want %+v", gotPer, wantPer)
			}
			if st.Total != want {
				t.Errorf("totals = %+v, want %+v", st.Total, want)
			}
			wantMain, wantSide := want, OutcomeCounts{}
			if c.mainCalls != nil {
				wantMain, wantSide = *c.mainCalls, *c.sideCalls
			}
			if st.Main != wantMain || st.Sidechain != wantSide {
				t.Errorf("by_source main %+v sidechain %+v, want %+v / %+v", st.Main, st.Sidechain, wantMain, wantSide)
			}
		})
	}
}

func fxAddOC(a, b OutcomeCounts) OutcomeCounts {
	return OutcomeCounts{OK: a.OK + b.OK, Error: a.Error + b.Error, Rejected: a.Rejected + b.Rejected,
		Pending: a.Pending + b.Pending, InProgress: a.InProgress + b.InProgress, Total: a.Total + b.Total}
}

// Case 7a by_model (EXPECTED.md §7a).
func TestFixtureNestedByModel(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	s := fxSession(t, sn, "-home-dev-sidechain-nested", "f9733c8b-747a-4242-90be-4b8631751842")
	want := map[string][2]string{
		"claude-opus-4-5-20251101":  {"49849", "0.083795"},
		"claude-haiku-4-5-20251001": {"19887", "0.012397"},
	}
	if len(s.Usage.ByModel) != len(want) {
		t.Errorf("by_model has %d models, want %d", len(s.Usage.ByModel), len(want))
	}
	for m, w := range want {
		tl := s.Usage.Model(m)
		if tl == nil {
			t.Errorf("by_model[%s] missing", m)
			continue
		}
		if got := [2]string{fmt.Sprint(tl.Total()), fxUsd(tl.Cost)}; got != w {
			t.Errorf("by_model[%s] = %v tokens/$, want %v", m, got, w)
		}
	}
}

// Case 4's last Grep and case 5's Read, by tool_use id.
func TestFixturePendingCalls(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	for _, c := range []struct{ project, id, call, name string }{
		{"-home-dev-outcomes", "b86f27bf-78c6-43a8-9320-d1ee97d26b45", "toolu_01OoPJFkFcucTRIUbYUZaKCt", "Grep"},
		{fxLiveTornProject, fxLiveTornID, "toolu_01RugRtFvmi5rWx2sNUlscjS", "Read"},
	} {
		s := fxSession(t, sn, c.project, c.id)
		found := false
		for _, call := range s.Main.Calls {
			if call.Key == IDKey(c.call) {
				found = true
				if call.Name() != c.name || call.Outcome(sn.IsLive(s)) != OutcomePending {
					t.Errorf("%s: %s %s outcome %s, want %s pending", c.id[:8], c.call, call.Name(), call.Outcome(sn.IsLive(s)), c.name)
				}
			}
		}
		if !found {
			t.Errorf("%s: call %s not found", c.id[:8], c.call)
		}
	}
}

// Case 5 read both ways: finished (old mtime) and live (mtime = now − 1m).
func TestFixtureLiveTorn(t *testing.T) {
	for _, tc := range []struct {
		name       string
		live       bool
		skipped    int
		read       OutcomeCounts
		treeSkip   int
		treeUnfin  OutcomeCounts // the two calls without a result, tree-wide
		currentHit bool
	}{
		{"finished", false, 1, fxOC(0, 0, 0, 1, 0), 3, fxOC(0, 0, 0, 2, 0), false},
		{"live", true, 0, fxOC(0, 0, 0, 0, 1), 2, fxOC(0, 0, 0, 1, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fxTree(t)
			now := fxNow
			if tc.live {
				fxMakeLive(t, root)
				now = fxLiveNow
			}
			sn := fxSnapshotAt(t, root, time.UTC, now)
			s := fxSession(t, sn, fxLiveTornProject, fxLiveTornID)
			live := sn.IsLive(s)
			if live != tc.live {
				t.Fatalf("is_live = %v, want %v", live, tc.live)
			}
			if got := s.SkippedLines(live); got != tc.skipped {
				t.Errorf("skipped_lines = %d, want %d", got, tc.skipped)
			}
			if got := s.Main.Entries; got != 5 {
				t.Errorf("entries = %d, want 5 (the torn line is never an entry)", got)
			}
			if s.SchemaStatus() != "verified" {
				t.Errorf("schema_status = %q, want verified (a torn last line is not drift)", s.SchemaStatus())
			}
			if s.MessageCount != 3 {
				t.Errorf("message_count = %d, want 3", s.MessageCount)
			}
			if got := fxTime(s.End); got != "2026-11-22T09:00:06.000Z" {
				t.Errorf("end = %s, want 2026-11-22T09:00:06.000Z (the torn line's timestamp does not count)", got)
			}
			fxCheckPart(t, "total", s.Usage.Total, fxPart{fxU(4, 130, 548, 0, 8600), "0.006597"})
			st := CountCalls(s, live)
			if got := *st.PerTool["Read"]; got != tc.read {
				t.Errorf("Read = %+v, want %+v", got, tc.read)
			}
			if got := *st.PerTool["Bash"]; got != fxOC(1, 0, 0, 0, 0) {
				t.Errorf("Bash = %+v, want ok 1", got)
			}
			cov := sn.Coverage()
			if cov.SkippedLines != tc.treeSkip {
				t.Errorf("tree skipped_lines = %d, want %d", cov.SkippedLines, tc.treeSkip)
			}
			if cov.Entries != 217 {
				t.Errorf("tree entries = %d, want 217", cov.Entries)
			}
			var all OutcomeCounts
			for _, x := range sn.Sessions {
				all = fxAddOC(all, CountCalls(x, sn.IsLive(x)).Total)
			}
			if want := fxAddOC(fxOC(27, 1, 3, 0, 0), tc.treeUnfin); all != want {
				t.Errorf("tree calls = %+v, want %+v", all, want)
			}
			cur := sn.Current("")
			if (cur == s) != tc.currentHit || (!tc.currentHit && cur != nil) {
				t.Errorf("current session = %v, want live-torn only when live", cur)
			}
		})
	}
}

func TestFixtureGrandTotals(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	var total, main, side Tally
	apiErrors := 0
	var calls OutcomeCounts
	tools := map[string]int{}
	for _, s := range sn.Sessions {
		total.Merge(s.Usage.Total)
		main.Merge(s.Usage.Main)
		side.Merge(s.Usage.Sidechain)
		apiErrors += s.APIErrors
		st := CountCalls(s, sn.IsLive(s))
		calls = fxAddOC(calls, st.Total)
		for n, o := range st.PerTool {
			tools[n] += o.Total
		}
	}
	// Cost: EXPECTED.md's 1,100,676 µ$ + case 2 priced at claude-opus-4-6 (44,165 µ$) = 1,144,841 µ$.
	fxCheckPart(t, "sessions' total", total, fxPart{fxU(6137, 12549, 83068, 15600, 1079400), "1.144841"})
	if total.Total() != 1196754 {
		t.Errorf("total_tokens = %d, want 1,196,754", total.Total())
	}
	if main.Total() != 1141490 || side.Total() != 55264 {
		t.Errorf("main/sidechain = %d / %d, want 1,141,490 / 55,264", main.Total(), side.Total())
	}
	// EXPECTED.md: partial with ["claude-opus-4.6-1m", "mystery-model-9"]; case 2 is priced (see top).
	if total.Cost.Status() != "partial" || !reflect.DeepEqual(total.Cost.UnpricedModels(), []string{"mystery-model-9"}) {
		t.Errorf("cost_status %q unpriced %v, want partial [mystery-model-9]", total.Cost.Status(), total.Cost.UnpricedModels())
	}
	if apiErrors != 1 {
		t.Errorf("api_errors = %d, want 1", apiErrors)
	}
	if want := fxOC(27, 1, 3, 2, 0); calls != want {
		t.Errorf("calls = %+v, want %+v (33: ok 27, error 1, rejected 3, pending 2 when case 5 is not live)", calls, want)
	}
	wantTools := map[string]int{"Bash": 10, "Read": 7, "Edit": 3, "Write": 3, "Grep": 3, "Task": 2, "TodoWrite": 2,
		"Agent": 1, "Glob": 1, "PowerShell": 1}
	if !reflect.DeepEqual(tools, wantTools) {
		t.Errorf("calls per tool = %v, want %v", tools, wantTools)
	}

	// usage_report agrees with the sessions.
	rep := sn.Report(ReportQuery{GroupBy: []string{"session"}})
	fxCheckPart(t, "report totals", rep.Totals, fxPart{fxU(6137, 12549, 83068, 15600, 1079400), "1.144841"})
	if rep.Sessions != 27 {
		t.Errorf("report sessions = %d, want 27", rep.Sessions)
	}

	cov := sn.Coverage()
	if cov.Sessions != 27 || cov.Projects != 22 || cov.SubagentFiles != 4 || cov.Entries != 217 ||
		cov.SkippedLines != 3 || cov.Unverified != 2 {
		t.Errorf("coverage sessions %d projects %d subagent_files %d entries %d skipped %d unverified %d; want 27 22 4 217 3 2",
			cov.Sessions, cov.Projects, cov.SubagentFiles, cov.Entries, cov.SkippedLines, cov.Unverified)
	}
	if fxTime(cov.First) != "2026-11-20T09:00:00.000Z" || fxTime(cov.Last) != "2026-11-29T11:01:40.000Z" {
		t.Errorf("first/last activity = %s / %s", fxTime(cov.First), fxTime(cov.Last))
	}
	if !reflect.DeepEqual(cov.Tools, wantTools) {
		t.Errorf("top_tools = %v, want %v", cov.Tools, wantTools)
	}
	if got := sn.CoverageFrom().Format(time.RFC3339); got != "2026-11-20T09:00:00Z" {
		t.Errorf("coverage_from = %s", got)
	}
}

func TestFixtureByModel(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	cov := sn.Coverage()
	want := map[string]fxPart{
		"claude-sonnet-4-5-20250929": {fxU(5992, 6604, 54268, 8000, 802900), "0.775779"},
		"claude-opus-4-5-20251101":   {fxU(22, 2450, 11700, 0, 114400), "0.191685"},
		"claude-opus-4-5":            {fxU(20, 200, 400, 0, 3000), "0.009100"},
		"claude-haiku-4-5-20251001":  {fxU(51, 1655, 14200, 0, 37400), "0.029816"},
		"claude-opus-5-5":            {fxU(14, 880, 0, 7600, 79200), "0.094296"},
		// EXPECTED.md: unpriced. pricing.json prices it as claude-opus-4-6 (see top): 44,165 µ$.
		"claude-opus-4.6-1m": {fxU(8, 460, 1900, 0, 41500), "0.044165"},
		"mystery-model-9":    {fxU(30, 300, 600, 0, 1000), "0.000000"},
	}
	if len(cov.Models) != len(want) {
		t.Errorf("models = %d, want %d", len(cov.Models), len(want))
	}
	for m, w := range want {
		tl := cov.Models[m]
		if tl == nil {
			t.Errorf("model %s missing", m)
			continue
		}
		fxCheckPart(t, m, *tl, w)
		status := "estimated"
		if m == "mystery-model-9" {
			status = "unknown"
		}
		if tl.Cost.Status() != status {
			t.Errorf("%s cost_status = %q, want %q", m, tl.Cost.Status(), status)
		}
	}
}

func TestFixtureAccountingCheck(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	ac := sn.Coverage().Accounting
	want := AccountingCheck{SessionsChecked: 2, Agreeing: 1, Differing: []string{"afc10e89-9d9d-49f9-9aec-e759ea1d8849"}}
	if !reflect.DeepEqual(ac, want) {
		t.Errorf("accounting_check = %+v, want %+v", ac, want)
	}
}

type fxDay struct {
	day      string
	sessions int
	tokens   int64
	cost     string
}

func TestFixtureDaysByZone(t *testing.T) {
	// EXPECTED.md's per-day table with 11-20 corrected in every zone: case 2
	// (2026-11-20T14:00Z, 11-20 in all three zones) is priced at 44,165 µ$, so
	// 19,467 + 44,165 = 63,632 µ$.
	zones := map[string][]fxDay{
		"UTC": {
			{"2026-11-20", 2, 68454, "0.063632"}, {"2026-11-21", 3, 87260, "0.044170"},
			{"2026-11-22", 3, 82495, "0.106320"}, {"2026-11-23", 4, 83026, "0.147136"},
			{"2026-11-24", 4, 628313, "0.473587"}, {"2026-11-25", 1, 4330, "0.016140"},
			{"2026-11-26", 1, 8370, "0.017130"}, {"2026-11-27", 4, 45180, "0.051758"},
			{"2026-11-28", 4, 166417, "0.202186"}, {"2026-11-29", 2, 22909, "0.022782"},
		},
		"America/Los_Angeles": {
			{"2026-11-20", 2, 68454, "0.063632"}, {"2026-11-21", 3, 87260, "0.044170"},
			{"2026-11-22", 3, 82495, "0.106320"}, {"2026-11-23", 6, 100474, "0.163510"},
			{"2026-11-24", 2, 610865, "0.457213"}, {"2026-11-25", 1, 12700, "0.033270"},
			{"2026-11-27", 4, 45180, "0.051758"}, {"2026-11-28", 4, 166417, "0.202186"},
			{"2026-11-29", 2, 22909, "0.022782"},
		},
		"Asia/Tokyo": {
			{"2026-11-20", 2, 68454, "0.063632"}, {"2026-11-21", 2, 20480, "0.007705"},
			{"2026-11-22", 3, 79539, "0.046593"}, {"2026-11-23", 4, 117606, "0.165460"},
			{"2026-11-24", 5, 663469, "0.551455"}, {"2026-11-26", 1, 12700, "0.033270"},
			{"2026-11-27", 4, 45180, "0.051758"}, {"2026-11-28", 2, 78723, "0.107890"},
			{"2026-11-29", 4, 110603, "0.117078"},
		},
	}
	// The midnight case's own rows, field by field (it is alone on 11-25 and 11-26).
	midnight := map[string]map[string]fxPart{
		"UTC": {
			"2026-11-25": {fxU(30, 300, 3000, 0, 1000), "0.016140"},
			"2026-11-26": {fxU(70, 700, 1200, 0, 6400), "0.017130"},
		},
		"America/Los_Angeles": {"2026-11-25": {fxU(100, 1000, 4200, 0, 7400), "0.033270"}},
		"Asia/Tokyo":          {"2026-11-26": {fxU(100, 1000, 4200, 0, 7400), "0.033270"}},
	}
	root := fxTree(t)
	names := make([]string, 0, len(zones))
	for z := range zones {
		names = append(names, z)
	}
	sort.Strings(names)
	for _, zone := range names {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			sn := fxSnapshot(t, root, loc)
			rep := sn.Report(ReportQuery{GroupBy: []string{"day"}})
			var got []fxDay
			for _, r := range rep.Rows {
				day := r.Vals[0] // grouped by day alone
				got = append(got, fxDay{day, r.Sessions, r.Usage.Total(), fxUsd(r.Usage.Cost)})
				if w, ok := midnight[zone][day]; ok {
					fxCheckPart(t, zone+" "+day, r.Usage, w)
				}
			}
			if !reflect.DeepEqual(got, zones[zone]) {
				t.Errorf("day rows\n got %v\nwant %v", got, zones[zone])
			}
			fxCheckPart(t, "totals", rep.Totals, fxPart{fxU(6137, 12549, 83068, 15600, 1079400), "1.144841"})
			if rep.Sessions != 27 {
				t.Errorf("totals.sessions = %d, want 27", rep.Sessions)
			}
		})
	}
}

func TestFixtureResolve(t *testing.T) {
	sn := fxSnapshot(t, fxTree(t), time.UTC)
	const twinA, twinB = "a7c31e58-5d2b-4f6e-9c1a-3e8b7d604f21", "a7c31e58-b40e-4a97-8d35-c1f2e9a07b6d"
	const two = "4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb"
	ambiguous := []struct {
		arg      string
		projects []string // candidates, latest end first
		ids      []string
	}{
		{"a7c3", []string{"-home-dev-prefix-twins", "-home-dev-prefix-twins"}, []string{twinB, twinA}},
		{"a7c31e58", []string{"-home-dev-prefix-twins", "-home-dev-prefix-twins"}, []string{twinB, twinA}},
		{"a7c31e58-", []string{"-home-dev-prefix-twins", "-home-dev-prefix-twins"}, []string{twinB, twinA}},
		{"4510", []string{"C--Users-dev-twin", "-mnt-c-Users-dev-twin"}, []string{two, two}},
		{"4510a0cc", []string{"C--Users-dev-twin", "-mnt-c-Users-dev-twin"}, []string{two, two}},
		{two, []string{"C--Users-dev-twin", "-mnt-c-Users-dev-twin"}, []string{two, two}},
	}
	for _, c := range ambiguous {
		_, err := sn.Resolve(c.arg, ResolveOptions{})
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeAmbiguousSession {
			t.Errorf("Resolve(%q) err = %v, want ambiguous_session", c.arg, err)
			continue
		}
		var ids, projects []string
		for _, s := range e.Candidates {
			ids, projects = append(ids, s.ID), append(projects, s.Project)
		}
		if !reflect.DeepEqual(ids, c.ids) || !reflect.DeepEqual(projects, c.projects) {
			t.Errorf("Resolve(%q) candidates %v %v, want %v %v", c.arg, ids, projects, c.ids, c.projects)
		}
	}
	for arg, want := range map[string]string{"a7c31e58-5": twinA, "a7c31e58-b": twinB, twinA: twinA, "A7C31E58-B40E": twinB} {
		s, err := sn.Resolve(arg, ResolveOptions{})
		if err != nil || s.ID != want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", arg, s, err, want)
		}
	}
	// Every other id: its 4-character prefix is unique.
	for _, s := range sn.Sessions {
		if s.ID == twinA || s.ID == twinB || s.ID == two {
			continue
		}
		got, err := sn.Resolve(s.ID[:4], ResolveOptions{})
		if err != nil || got != s {
			t.Errorf("Resolve(%q) = %v, %v; want %s", s.ID[:4], got, err, s.ID)
		}
	}
	if s, err := sn.Resolve("latest", ResolveOptions{}); err != nil || s.ID != "2d5fd24a-6e26-4039-80e5-cfac5f4e2d2d" {
		t.Errorf("Resolve(latest) = %v, %v; want the spill session", s, err)
	}
	if _, err := sn.Resolve("ffff", ResolveOptions{}); !fxIsCode(err, CodeSessionNotFound) {
		t.Errorf("Resolve(ffff) err = %v, want session_not_found", err)
	}
	for _, bad := range []string{"../a7c31e58", "a7c", "a7c31e58/x"} {
		if _, err := sn.Resolve(bad, ResolveOptions{}); !fxIsCode(err, CodeInvalidArgument) {
			t.Errorf("Resolve(%q) err = %v, want invalid_argument", bad, err)
		}
	}
}

func fxIsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
