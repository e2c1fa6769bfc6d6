package tools

// summarize_work, session_recap's outcomes and list_recent_sessions' outcome
// kinds over testdata/handoff: three spacepilot sessions across Los Angeles
// midnight, against the figures hand-computed in testdata/handoff/EXPECTED.md
// (its machine-readable block, which check.py keeps equal to the JSONL). The
// window reading is "whole sessions": a session active in the window brings
// all its calls and usage (docs/choices.md).

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/logs"
)

// handoffFacts is the part of EXPECTED.md's JSON block these tests read.
type handoffFacts struct {
	Sessions map[string]struct {
		FinalAssistantText string   `json:"final_assistant_text"`
		Outcomes           []string `json:"outcomes"`
		Recoveries         []struct {
			Failed    string `json:"failed_tool_use_id"`
			Recovered string `json:"recovered_tool_use_id"`
			ToolName  string `json:"tool_name"`
			Steps     int    `json:"steps"`
		} `json:"recoveries"`
		OpenTodos []struct {
			Content string `json:"content"`
			Status  string `json:"status"`
		} `json:"open_todos"`
		TaskList *string `json:"task_list_tool_use_id"`
		Usage    struct {
			Total struct {
				TotalTokens int64 `json:"total_tokens"`
			} `json:"total"`
		} `json:"usage"`
	} `json:"sessions"`
	MergedAll struct {
		Files []struct {
			Path     string   `json:"path"`
			Edits    int      `json:"edits"`
			Sessions []string `json:"sessions"`
			Last     string   `json:"last"`
		} `json:"files_changed"`
		Commits []struct {
			ID        string `json:"tool_use_id"`
			Timestamp string `json:"timestamp"`
			Message   string `json:"message"`
			SessionID string `json:"session_id"`
		} `json:"commits"`
		Checks []struct {
			Command, Kind, Outcome, Timestamp string
			ID                                string `json:"tool_use_id"`
			SessionID                         string `json:"session_id"`
		} `json:"tests_and_builds"`
		Unresolved []struct {
			SessionID string `json:"session_id"`
			ID        string `json:"tool_use_id"`
			ToolName  string `json:"tool_name"`
			Timestamp string `json:"timestamp"`
		} `json:"unresolved_failures"`
		Usage struct {
			Input       int64 `json:"input_tokens"`
			Output      int64 `json:"output_tokens"`
			CacheCreate int64 `json:"cache_creation_tokens"`
			CacheRead   int64 `json:"cache_read_tokens"`
			Total       int64 `json:"total_tokens"`
		} `json:"usage"`
	} `json:"merged_all"`
	Windows []struct {
		Name, Zone, Now string
		SinceArg        string  `json:"since_arg"`
		UntilArg        *string `json:"until_arg"`
		Since           string
		Until           *string
		Sessions        []string
		Whole           *windowFacts `json:"whole_sessions"`
	} `json:"windows"`
	CostUSD map[string]float64 `json:"cost_usd"`
}

type windowFacts struct {
	Files      [][]any  `json:"files_changed"` // [basename, edits]
	Commits    []string `json:"commits"`
	PRs        []string `json:"prs"`
	Checks     [][]any  `json:"tests_and_builds"` // [command, outcome, tool_use_id]
	Unresolved []string `json:"unresolved_failures"`
	TodosFrom  *string  `json:"open_todos_from"`
	Tokens     int64    `json:"total_tokens"`
}

func handoffExpected(t *testing.T) handoffFacts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "handoff", "EXPECTED.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Machine-readable facts.*?```json\n(.*?)\n```").FindSubmatch(b)
	if m == nil {
		t.Fatal("EXPECTED.md has no machine-readable JSON block")
	}
	var f handoffFacts
	if err := json.Unmarshal(m[1], &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Windows) != 14 || len(f.Sessions) != 3 {
		t.Fatalf("EXPECTED.md: %d windows, %d sessions", len(f.Windows), len(f.Sessions))
	}
	return f
}

// handoffSpecs returns the tools over a copy of testdata/handoff with the
// clock at now and days in zone.
func handoffSpecs(t *testing.T, now, zone string) map[string]Spec {
	t.Helper()
	clock, err := time.Parse(time.RFC3339, now)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	_, store := treeStore(t, "handoff", clock, loc)
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: store}) {
		specs[s.Tool.Name] = s
	}
	return specs
}

func summarizeCall[T any](t *testing.T, spec Spec, args map[string]any) T {
	t.Helper()
	raw, _ := json.Marshal(args)
	out, err := spec.Call(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s %s: %v", spec.Tool.Name, raw, err)
	}
	b, _ := json.Marshal(out)
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func sorted(xs []string) []string {
	out := append([]string{}, xs...)
	sort.Strings(out)
	return out
}

// TestSummarizeWorkHandoffWindows runs every window of EXPECTED.md (clocks A
// and B; today, yesterday, 24h, dates, custom ranges; UTC and Los Angeles).
func TestSummarizeWorkHandoffWindows(t *testing.T) {
	exp := handoffExpected(t)
	for _, w := range exp.Windows {
		t.Run(w.Name+" "+w.Zone, func(t *testing.T) {
			specs := handoffSpecs(t, w.Now, w.Zone)
			args := map[string]any{"repo": "spacepilot", "since": w.SinceArg}
			if w.UntilArg != nil {
				args["until"] = *w.UntilArg
			}
			got := summarizeCall[SummarizeOut](t, specs["summarize_work"], args)
			wantUntil := ""
			if w.Until != nil {
				wantUntil = *w.Until
			}
			if got.Since != w.Since || got.Until != wantUntil || got.Timezone != w.Zone {
				t.Errorf("window %s → %s (%s), want %s → %s (%s)", got.Since, got.Until, got.Timezone, w.Since, wantUntil, w.Zone)
			}
			var ids []string
			for i, s := range got.Sessions {
				ids = append(ids, s.SessionID)
				if i > 0 && s.End > got.Sessions[i-1].End {
					t.Errorf("sessions are not most recently active first: %s after %s", s.End, got.Sessions[i-1].End)
				}
				if s.Cost != exp.CostUSD[s.SessionID] || s.TotalTokens != exp.Sessions[s.SessionID].Usage.Total.TotalTokens {
					t.Errorf("%s: %d tokens $%v, want %d $%v", s.SessionID, s.TotalTokens, s.Cost,
						exp.Sessions[s.SessionID].Usage.Total.TotalTokens, exp.CostUSD[s.SessionID])
				}
			}
			if !reflect.DeepEqual(sorted(ids), sorted(w.Sessions)) || got.SessionsTotal != len(w.Sessions) {
				t.Fatalf("sessions %v (total %d), want %v", ids, got.SessionsTotal, w.Sessions)
			}
			if w.Whole == nil {
				if len(got.FilesChanged)+len(got.Commits)+len(got.PRs)+len(got.TestsAndBuilds)+len(got.OpenTodos)+len(got.UnresolvedFailures) != 0 ||
					got.Usage.TotalTokens != 0 || len(got.Gaps) != 1 || !strings.HasPrefix(got.Gaps[0], "no session was active") {
					t.Errorf("an empty window: %+v", got)
				}
				return
			}
			want := w.Whole
			var files [][]any
			for _, f := range got.FilesChanged {
				files = append(files, []any{path.Base(f.Path), float64(f.Edits)})
			}
			if !reflect.DeepEqual(files, want.Files) {
				t.Errorf("files_changed %v, want %v (newest first)", files, want.Files)
			}
			var commits, prs, unresolved []string
			for _, c := range got.Commits {
				commits = append(commits, c.ToolUseID)
			}
			for _, p := range got.PRs {
				prs = append(prs, p.URL)
			}
			for _, u := range got.UnresolvedFailures {
				unresolved = append(unresolved, u.ToolUseID)
			}
			if !reflect.DeepEqual(nonNil(commits), nonNil(want.Commits)) || !reflect.DeepEqual(nonNil(prs), nonNil(want.PRs)) ||
				!reflect.DeepEqual(nonNil(unresolved), nonNil(want.Unresolved)) {
				t.Errorf("commits %v prs %v unresolved %v, want %v %v %v", commits, prs, unresolved, want.Commits, want.PRs, want.Unresolved)
			}
			var checks [][]any
			for _, c := range got.TestsAndBuilds {
				checks = append(checks, []any{c.Command, c.Outcome, c.ToolUseID})
			}
			sort.Slice(checks, func(i, j int) bool { return checks[i][0].(string) < checks[j][0].(string) })
			if !reflect.DeepEqual(checks, want.Checks) && len(checks)+len(want.Checks) > 0 {
				t.Errorf("tests_and_builds %v, want %v", checks, want.Checks)
			}
			if want.TodosFrom == nil {
				if got.OpenTodosSessionID != "" || len(got.OpenTodos) != 0 {
					t.Errorf("open todos from %s, want none", got.OpenTodosSessionID)
				}
			} else if got.OpenTodosSessionID != *want.TodosFrom || got.OpenTodosTotal != len(exp.Sessions[*want.TodosFrom].OpenTodos) {
				t.Errorf("open todos from %s (%d), want %s", got.OpenTodosSessionID, got.OpenTodosTotal, *want.TodosFrom)
			}
			if got.Usage.TotalTokens != want.Tokens {
				t.Errorf("usage %d tokens, want %d", got.Usage.TotalTokens, want.Tokens)
			}
			if got.Truncated || got.NextCursor != "" {
				t.Errorf("truncated %v next_cursor %q on a window of %d sessions", got.Truncated, got.NextCursor, len(ids))
			}
		})
	}
}

// TestSummarizeWorkHandoffMerged checks every field of the merged lists over
// all three sessions against EXPECTED.md's merged_all, and each session's
// outcomes, recoveries and todos through summarize_work, session_recap and
// list_recent_sessions.
func TestSummarizeWorkHandoffMerged(t *testing.T) {
	exp := handoffExpected(t)
	specs := handoffSpecs(t, "2026-11-29T18:00:00Z", "America/Los_Angeles")
	got := summarizeCall[SummarizeOut](t, specs["summarize_work"], map[string]any{"repo": "SPACE", "since": "2026-11-20"})
	m := exp.MergedAll
	home := func(p string) string { return strings.Replace(p, "/home/dev", "~", 1) }
	if len(got.FilesChanged) != len(m.Files) {
		t.Fatalf("files_changed %+v", got.FilesChanged)
	}
	for i, f := range m.Files {
		g := got.FilesChanged[i]
		if g.Path != home(f.Path) || g.Edits != f.Edits || g.Last != f.Last || !reflect.DeepEqual(sorted(g.Sessions), sorted(f.Sessions)) {
			t.Errorf("files_changed[%d] = %+v, want %+v", i, g, f)
		}
	}
	if len(got.Commits) != 1 || got.Commits[0].ToolUseID != m.Commits[0].ID || got.Commits[0].Message != m.Commits[0].Message ||
		got.Commits[0].Timestamp != m.Commits[0].Timestamp || got.Commits[0].SessionID != m.Commits[0].SessionID || got.Commits[0].Outcome != "ok" {
		t.Errorf("commits %+v, want %+v", got.Commits, m.Commits)
	}
	if len(got.TestsAndBuilds) != len(m.Checks) {
		t.Fatalf("tests_and_builds %+v", got.TestsAndBuilds)
	}
	for i, c := range m.Checks { // newest first in both
		g := got.TestsAndBuilds[i]
		if g.Command != c.Command || g.Kind != c.Kind || g.Outcome != c.Outcome || g.ToolUseID != c.ID || g.Timestamp != c.Timestamp || g.SessionID != c.SessionID {
			t.Errorf("tests_and_builds[%d] = %+v, want %+v", i, g, c)
		}
	}
	if len(got.UnresolvedFailures) != 1 {
		t.Fatalf("unresolved %+v", got.UnresolvedFailures)
	}
	if g, u := got.UnresolvedFailures[0], m.Unresolved[0]; g.ToolUseID != u.ID || g.SessionID != u.SessionID || g.ToolName != u.ToolName ||
		g.Timestamp != u.Timestamp || !strings.Contains(g.InputExcerpt, "go build ./...") || !strings.Contains(g.ErrorExcerpt, "prometheus") {
		t.Errorf("unresolved %+v, want %+v", g, u)
	}
	if got.Usage.InputTokens != m.Usage.Input || got.Usage.OutputTokens != m.Usage.Output || got.Usage.CacheCreationTokens != m.Usage.CacheCreate ||
		got.Usage.CacheReadTokens != m.Usage.CacheRead || got.Usage.TotalTokens != m.Usage.Total || got.Usage.Cost != exp.CostUSD["all"] {
		t.Errorf("usage %+v, want %+v $%v", got.Usage, m.Usage, exp.CostUSD["all"])
	}
	s3 := exp.Sessions[got.OpenTodosSessionID]
	if s3.TaskList == nil || got.OpenTodosToolUseID != *s3.TaskList || len(got.OpenTodos) != len(s3.OpenTodos) {
		t.Fatalf("open todos from %s %s: %+v", got.OpenTodosSessionID, got.OpenTodosToolUseID, got.OpenTodos)
	}
	for i, td := range s3.OpenTodos {
		if got.OpenTodos[i] != (WorkTodo{Text: td.Content, Status: td.Status}) {
			t.Errorf("open_todos[%d] = %+v, want %+v", i, got.OpenTodos[i], td)
		}
	}

	list := summarizeCall[ListSessionsOut](t, specs["list_recent_sessions"], map[string]any{"repo": "spacepilot"})
	listed := map[string][]string{}
	for _, s := range list.Sessions {
		listed[s.SessionID] = s.Outcomes
	}
	for _, s := range got.Sessions {
		want := exp.Sessions[s.SessionID]
		if !reflect.DeepEqual(s.Outcomes, want.Outcomes) || !reflect.DeepEqual(listed[s.SessionID], want.Outcomes) {
			t.Errorf("%s: outcomes %v, listed %v, want %v", s.SessionID, s.Outcomes, listed[s.SessionID], want.Outcomes)
		}
		if s.FinalAssistantText != want.FinalAssistantText {
			t.Errorf("%s: final text %q, want %q", s.SessionID, s.FinalAssistantText, want.FinalAssistantText)
		}
		recap := summarizeCall[RecapOut](t, specs["session_recap"], map[string]any{"session": s.SessionID})
		var kinds []string
		for _, o := range recap.Outcomes {
			kinds = append(kinds, o.Kind)
			if o.SessionID != s.SessionID || o.Excerpt == "" || o.Timestamp == "" {
				t.Errorf("%s: evidence %+v lacks a session, excerpt or time", s.SessionID, o)
			}
		}
		if !reflect.DeepEqual(kinds, want.Outcomes) {
			t.Errorf("%s: recap outcomes %v, want %v", s.SessionID, kinds, want.Outcomes)
		}
		var recs []RecoveryItem
		for _, r := range want.Recoveries {
			recs = append(recs, RecoveryItem{FailedToolUseID: r.Failed, RecoveredToolUseID: r.Recovered, ToolName: r.ToolName, Steps: r.Steps})
		}
		if !reflect.DeepEqual(nonNilRec(recap.Recoveries), nonNilRec(recs)) { // a compact recap leaves out an empty list
			t.Errorf("%s: recoveries %+v, want %+v", s.SessionID, recap.Recoveries, recs)
		}
	}
}

func nonNilRec(r []RecoveryItem) []RecoveryItem {
	if r == nil {
		return []RecoveryItem{}
	}
	return r
}

// TestSessionRecapEvidence pins the excerpt of each outcome kind in the
// handoff sessions.
func TestSessionRecapEvidence(t *testing.T) {
	specs := handoffSpecs(t, "2026-11-29T18:00:00Z", "UTC")
	want := map[string]map[string]OutcomeEvidence{
		"7d1f": {
			"files_changed":   {ToolUseID: "toolu_01FZJZDT2JX9qCzaWYvIWlv2", Timestamp: "2026-11-28T08:03:20.500Z", Source: "sidechain", Excerpt: "~/spacepilot/api/limits.go"},
			"commit_observed": {ToolUseID: "toolu_01CyYKWsvmh235piyeRAk9Xi", Timestamp: "2026-11-28T08:10:00.000Z", Source: "main", Excerpt: "Fix rate limiter refill interval"},
			"pushed":          {ToolUseID: "toolu_01jPjIIIU6Z9sKtiVtNjihi1", Timestamp: "2026-11-28T08:12:00.000Z", Source: "main", Excerpt: "git push -u origin fix/ratelimit"},
			"pr_opened":       {ToolUseID: "toolu_01Hb4qXFLik8RZthfuTHqNrT", Timestamp: "2026-11-28T08:20:00.000Z", Source: "main", Excerpt: "https://github.com/dev/spacepilot/pull/42"},
			"tests_passed":    {ToolUseID: "toolu_01tLqmzGKlyKpFkHUnwHLAWF", Timestamp: "2026-11-28T08:01:10.000Z", Source: "main", Excerpt: "go test ./..."},
		},
		"b4e6": {
			"files_changed":  {ToolUseID: "toolu_01WrKu6EDjBsvgsWyhK8sLVx", Timestamp: "2026-11-28T22:16:40.000Z", Source: "main", Excerpt: "~/spacepilot/api/metrics.go"},
			"build_failed":   {ToolUseID: "toolu_01ZLXz1XvTYI0vNskPIxLxai", Timestamp: "2026-11-28T22:17:00.000Z", Source: "main", Excerpt: "go build ./...\nExit code 1"},
			"ended_on_error": {Timestamp: "2026-11-28T22:52:04.000Z", Excerpt: "API Error: 529"},
		},
		"3c5e": {
			"files_changed": {ToolUseID: "toolu_01D1MOF4EFxGmXHv8AZ36A4S", Timestamp: "2026-11-27T20:05:12.000Z", Source: "main", Excerpt: "~/spacepilot/api/server.go"},
			"tests_passed":  {ToolUseID: "toolu_01RklSa6UKnimQwWrGMaOiIT", Timestamp: "2026-11-27T20:06:15.000Z", Source: "main", Excerpt: "go test ./api/..."},
			"build_passed":  {ToolUseID: "toolu_01kAEhcK7fErVh4suELEDhrz", Timestamp: "2026-11-27T20:06:02.400Z", Source: "main", Excerpt: "go build ./..."},
		},
	}
	for prefix, kinds := range want {
		recap := summarizeCall[RecapOut](t, specs["session_recap"], map[string]any{"session": prefix})
		if len(recap.Outcomes) != len(kinds) {
			t.Errorf("%s: %d outcomes, want %d", prefix, len(recap.Outcomes), len(kinds))
		}
		for _, o := range recap.Outcomes {
			w, ok := kinds[o.Kind]
			if !ok {
				t.Errorf("%s: unexpected outcome %s", prefix, o.Kind)
				continue
			}
			if o.ToolUseID != w.ToolUseID || o.Timestamp != w.Timestamp || o.Source != w.Source || !strings.HasPrefix(o.Excerpt, w.Excerpt) {
				t.Errorf("%s %s: evidence %+v, want %+v", prefix, o.Kind, o, w)
			}
		}
	}
}

// TestSummarizeWorkHandoffGolden pins whole answers: yesterday and today in
// UTC and Los Angeles at clock A, and two custom ranges.
func TestSummarizeWorkHandoffGolden(t *testing.T) {
	cases := []struct {
		name, zone string
		args       map[string]any
	}{
		{"yesterday_utc", "UTC", map[string]any{"repo": "spacepilot", "since": "yesterday", "until": "yesterday"}},
		{"today_utc", "UTC", map[string]any{"repo": "spacepilot", "since": "today", "until": "today"}},
		{"yesterday_la", "America/Los_Angeles", map[string]any{"repo": "spacepilot", "since": "yesterday", "until": "yesterday"}},
		{"today_la", "America/Los_Angeles", map[string]any{"repo": "spacepilot", "since": "today", "until": "today"}},
		{"range_0745_0800", "UTC", map[string]any{"since": "2026-11-28T07:45:00Z", "until": "2026-11-28T08:00:00Z"}},
		{"range_dates_la_page", "America/Los_Angeles", map[string]any{"since": "2026-11-27", "until": "2026-11-28", "limit": 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			specs := handoffSpecs(t, "2026-11-28T23:30:00Z", c.zone)
			raw, _ := json.Marshal(c.args)
			out, err := specs["summarize_work"].Call(context.Background(), raw)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.MarshalIndent(out, "", "  ")
			if len(b) > 12000 {
				t.Errorf("%d characters, above the default budget", len(b))
			}
			checkGolden(t, filepath.Join("testdata", "handoff", c.name+".json"), append(b, '\n'))
		})
	}
}

// TestSummarizeWorkPaging walks every page of the handoff window one session
// at a time: each session exactly once, in order, and the merged lists the
// same on every page.
func TestSummarizeWorkPaging(t *testing.T) {
	specs := handoffSpecs(t, "2026-11-28T23:30:00Z", "UTC")
	args := map[string]any{"since": "7d", "limit": 1}
	whole := summarizeCall[SummarizeOut](t, specs["summarize_work"], map[string]any{"since": "7d"})
	var seen []string
	for page := 0; ; page++ {
		got := summarizeCall[SummarizeOut](t, specs["summarize_work"], args)
		if len(got.Sessions) != 1 {
			t.Fatalf("page %d: %d sessions", page, len(got.Sessions))
		}
		seen = append(seen, got.Sessions[0].SessionID)
		if !reflect.DeepEqual(got.FilesChanged, whole.FilesChanged) || !reflect.DeepEqual(got.TestsAndBuilds, whole.TestsAndBuilds) ||
			!reflect.DeepEqual(got.Usage, whole.Usage) {
			t.Errorf("page %d: the merged lists differ from the whole window's", page)
		}
		if got.NextCursor == "" {
			if got.Truncated {
				t.Errorf("last page says truncated")
			}
			break
		}
		if !got.Truncated {
			t.Errorf("page %d has a next_cursor but truncated=false", page)
		}
		args["cursor"] = got.NextCursor
	}
	var want []string
	for _, s := range whole.Sessions {
		want = append(want, s.SessionID)
	}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("pages %v, want %v", seen, want)
	}
	// A cursor with other filters, or a made-up one, is invalid_argument.
	for _, a := range []map[string]any{
		{"since": "30d", "limit": 1, "cursor": args["cursor"]},
		{"since": "7d", "cursor": "sw1.zz.00000000.00000000"},
		{"since": "7d", "cursor": "next"},
	} {
		raw, _ := json.Marshal(a)
		_, err := specs["summarize_work"].Call(context.Background(), raw)
		if b := ErrorOf(err); err == nil || b.Error != logs.CodeInvalidArgument || b.Argument != "cursor" {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

// TestListRecentSessionsOutcomeFilter filters the handoff sessions by kind.
func TestListRecentSessionsOutcomeFilter(t *testing.T) {
	exp := handoffExpected(t)
	specs := handoffSpecs(t, "2026-11-29T18:00:00Z", "UTC")
	for _, k := range logs.OutcomeKinds {
		var want []string
		for id, s := range exp.Sessions {
			for _, o := range s.Outcomes {
				if o == string(k) {
					want = append(want, id)
				}
			}
		}
		got := summarizeCall[ListSessionsOut](t, specs["list_recent_sessions"], map[string]any{"outcome": string(k)})
		var ids []string
		for _, s := range got.Sessions {
			ids = append(ids, s.SessionID)
		}
		if !reflect.DeepEqual(sorted(ids), sorted(want)) || got.TotalMatched != len(want) {
			t.Errorf("outcome=%s: %v (%d), want %v", k, ids, got.TotalMatched, want)
		}
	}
	_, err := specs["list_recent_sessions"].Call(context.Background(), []byte(`{"outcome":"tests_pass"}`))
	if b := ErrorOf(err); err == nil || b.Error != logs.CodeInvalidArgument || b.Argument != "outcome" {
		t.Errorf("a bad outcome: %v", err)
	}
}

// TestSummarizeWorkReplayedCalls: a call copied into several files or
// sessions is merged once (testdata/replay, SPEC §3). The resumed session's
// copy of its parent's failed `go test` is the parent's failure, and the
// resumed session's ok run resolves it; the workers' four copies of a failed
// `git add` are one unresolved failure.
func TestSummarizeWorkReplayedCalls(t *testing.T) {
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	_, store := treeStore(t, "replay", clock, time.UTC)
	spec := toolOf(t, All(Deps{Store: store}), "summarize_work")
	resumed := summarizeCall[SummarizeOut](t, spec, map[string]any{"repo": "resumed", "since": "30d"})
	if len(resumed.Sessions) != 2 || len(resumed.UnresolvedFailures) != 0 || len(resumed.FilesChanged) != 1 || resumed.FilesChanged[0].Edits != 2 ||
		len(resumed.TestsAndBuilds) != 1 || resumed.TestsAndBuilds[0].Outcome != "passed" || resumed.TestsAndBuilds[0].ToolUseID != "toolu_01ResumedGoTestOk5eV4" {
		t.Errorf("resumed: %d sessions, unresolved %+v, files %+v, checks %+v", len(resumed.Sessions), resumed.UnresolvedFailures,
			resumed.FilesChanged, resumed.TestsAndBuilds)
	}
	workers := summarizeCall[SummarizeOut](t, spec, map[string]any{"repo": "workers", "since": "30d"})
	var ids []string
	for _, u := range workers.UnresolvedFailures {
		ids = append(ids, u.ToolUseID)
	}
	want := []string{"toolu_01ForkGoTestFail3nV5x", "toolu_01AsideReadMissing8wQ", "toolu_01GitAddWrongPath7hQ2mZ"}
	if !reflect.DeepEqual(ids, want) || workers.CommitsTotal != 1 || workers.FilesChanged[0].Edits != 1 {
		t.Errorf("workers: unresolved %v (want %v), %d commits, files %+v", ids, want, workers.CommitsTotal, workers.FilesChanged)
	}
}

// TestSummarizeWorkBudget: over the public corpus (real sessions, long
// prompts, many files and failures) every answer fits its budget: 12,000
// characters with the default limit, at most 40,000 with any.
func TestSummarizeWorkBudget(t *testing.T) {
	base := filepath.Join("..", "..", "shared", "corpus", "public")
	if _, err := os.Stat(base); err != nil {
		t.Skipf("public corpus not found at %s", base)
	}
	store := rootsStore(t, fixture.ProjectRoots(base), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), time.UTC)
	spec := toolOf(t, All(Deps{Store: store}), "summarize_work")
	if spec.Tool.Meta == nil || spec.Tool.Meta.AdditionalFields["anthropic/alwaysLoad"] != true {
		t.Errorf("summarize_work does not set _meta anthropic/alwaysLoad")
	}
	for _, limit := range []int{0, 1, 3, 10, 11, 25, 50} {
		for _, repo := range []string{"", "webtech", "Custom_Addons"} {
			args := map[string]any{"since": "2000-01-01", "repo": repo}
			budget := 12000
			if limit > 0 {
				args["limit"] = limit
				budget = summarizeBudget(limit)
			}
			raw, _ := json.Marshal(args)
			out, err := spec.Call(context.Background(), raw)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(out)
			if len(b) > budget || budget > 40000 {
				t.Errorf("%s: %d characters, budget %d", raw, len(b), budget)
			}
		}
	}
}
