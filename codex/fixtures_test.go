package codex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/agent-activity/agent-activity/transcript"
)

// The fixtures under testdata/home hold one trap each. Their figures were
// worked out by hand from the lines; each case says how.

const fixtureHome = "testdata/home"

func fixture(t *testing.T, id string) *Rollout {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(fixtureHome, "*", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	more, _ := filepath.Glob(filepath.Join(fixtureHome, "archived_sessions", "rollout-*-"+id+".jsonl"))
	matches = append(matches, more...)
	if len(matches) != 1 {
		t.Fatalf("fixture %s: %d files", id, len(matches))
	}
	r, err := SummarizeFile(context.Background(), transcript.File{Root: transcript.NewRoot(fixtureHome, ""), Path: matches[0]})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func callOutcomes(calls []Call) map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, c := range calls {
		if m[c.Name] == nil {
			m[c.Name] = map[string]int{}
		}
		m[c.Name][c.Result.String()]++
	}
	return m
}

type outcomes = map[string]map[string]int

func TestFixtureUsage(t *testing.T) {
	tests := []struct {
		name, id  string
		responses int
		want      Usage
		prompts   int
		models    []string
	}{
		// Totals 1050 (twice: the second is a re-emission), 2320 (twice: the
		// second keeps the total and changes last to 9999), 3700. Counted lasts:
		// input 1000+1200+1300 = 3500, cached 800+900+900 = 2600, output
		// 50+70+80 = 200, reasoning 20+20+20 = 60; fresh input 3500-2600 = 900.
		// Total 3700 = the last total, as §14.5's cross-check says.
		{"re-emitted totals", "01900000-0001-7000-8000-000000000001", 3,
			Usage{InputTokens: 900, CacheReadTokens: 2600, OutputTokens: 200, ReasoningTokens: 60}, 1,
			[]string{"gpt-5.1-codex-max"}},
		// Totals 5100, 9300, then a restart at 640 (repeated once) and 1590.
		// Lasts: input 5000+4000+600+900 = 10500, cached 4000+3000+0+500 =
		// 7500, output 100+200+40+50 = 390, reasoning 50+50+10+10 = 120.
		// Total 10890 = 9300 + 1590; "final total of the file" would say 1590.
		{"counter restart", "01900000-0002-7000-8000-000000000002", 4,
			Usage{InputTokens: 3000, CacheReadTokens: 7500, OutputTokens: 390, ReasoningTokens: 120}, 2,
			[]string{"gpt-5-codex"}},
		// Main 10500; review counter 3175 and 74831; main again 10500 (a
		// repeat) then 21900. Lasts: input 10000+3000+71000+11000 = 95000,
		// cached 8000+1000+59000+9000 = 77000, output 500+175+656+400 =
		// 1731, reasoning 200+75+225+100 = 600; total 96731. The /review
		// prompt is written twice with one timestamp: 2 prompts.
		{"review-mode second counter", "01900000-0003-7000-8000-000000000003", 4,
			Usage{InputTokens: 18000, CacheReadTokens: 77000, OutputTokens: 1731, ReasoningTokens: 600}, 2,
			[]string{"gpt-5-codex"}},
		// An all-zero total with last.total 9430 before thread_rolled_back is
		// skipped; then 8300 and 17500: input 8000+9000 = 17000, cached
		// 6000+7000 = 13000, output 300+200 = 500, reasoning 100+50 = 150.
		{"zero total before rollback", "01900000-0004-7000-8000-000000000004", 2,
			Usage{InputTokens: 4000, CacheReadTokens: 13000, OutputTokens: 500, ReasoningTokens: 150}, 2,
			[]string{"gpt-5.5"}},
		// Parent: 1040, 2190, 3450: input 1000+1100+1200 = 3300, cached
		// 500+500+500 = 1500, output 40+50+60 = 150, reasoning 10+10+10 = 30.
		{"fork parent", "019f0000-0000-7000-8000-00000000000a", 3,
			Usage{InputTokens: 1800, CacheReadTokens: 1500, OutputTokens: 150, ReasoningTokens: 30}, 1,
			[]string{"gpt-5.6-sol"}},
		// Child: the copied 1040 is not its own, its re-emission is a repeat;
		// own 2400 and 3980: input 1300+1500 = 2800, cached 700+800 = 1500,
		// output 60+80 = 140, reasoning 15+20 = 35; total 2940 = 3980 - 1040.
		// The copied turn_context's gpt-5.6-sol is the parent's model.
		{"fork child", "019f0000-1000-7000-8000-00000000000b", 2,
			Usage{InputTokens: 1300, CacheReadTokens: 1500, OutputTokens: 140, ReasoningTokens: 35}, 0,
			[]string{"gpt-5.4-mini"}},
		// Copied 520 and 1250, own repeat of 1250, own 2080: input 800,
		// cached 500, output 30, reasoning 5. Its own user_message (the 0.119
		// fork task) counts; the copied parent prompt does not.
		{"fork without parent file", "019f0000-4000-7000-8000-00000000000d", 1,
			Usage{InputTokens: 300, CacheReadTokens: 500, OutputTokens: 30, ReasoningTokens: 5}, 1,
			[]string{"gpt-5.5"}},
		// 110 counted; the torn 330 line is not read.
		{"torn last line", "01900000-0007-7000-8000-000000000007", 1,
			Usage{InputTokens: 100, OutputTokens: 10}, 1, []string{"gpt-5.1-codex-max"}},
		{"calls without output", "01900000-0008-7000-8000-000000000008", 1,
			Usage{InputTokens: 1000, CacheReadTokens: 3000, OutputTokens: 60, ReasoningTokens: 20}, 1,
			[]string{"gpt-5.3-codex"}},
		// 2030 counted; after the abort 2030 comes again with last 905: a repeat.
		{"aborted turn", "01900000-0009-7000-8000-000000000009", 1,
			Usage{InputTokens: 1000, CacheReadTokens: 1000, OutputTokens: 30}, 2,
			[]string{"gpt-5.1-codex-max"}},
		{"unknown types", "01900000-0010-7000-8000-000000000010", 1,
			Usage{InputTokens: 100, CacheReadTokens: 600, OutputTokens: 7}, 1, []string{"gpt-5.5"}},
		// Models without a price are names like any other.
		{"unpriced model", "01900000-0011-7000-8000-000000000011", 1,
			Usage{InputTokens: 1500, OutputTokens: 80}, 2,
			[]string{"kimi-k2.5:cloud", "mistral:7b-instruct-q4_K_M"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := fixture(t, tc.id)
			if got := len(r.OwnResponses()); got != tc.responses {
				t.Errorf("responses: got %d, want %d", got, tc.responses)
			}
			if r.Total != tc.want {
				t.Errorf("total: got %+v, want %+v", r.Total, tc.want)
			}
			var sum Usage
			for _, x := range r.OwnResponses() {
				sum.Add(x.Usage)
			}
			if sum != r.Total {
				t.Errorf("responses sum %+v, total %+v", sum, r.Total)
			}
			if r.Prompts != tc.prompts {
				t.Errorf("prompts: got %d, want %d", r.Prompts, tc.prompts)
			}
			if !reflect.DeepEqual(r.Models, tc.models) {
				t.Errorf("models: got %q, want %q", r.Models, tc.models)
			}
			if r.ID != tc.id || r.FileID != tc.id {
				t.Errorf("id %q, file id %q, want %q", r.ID, r.FileID, tc.id)
			}
			if r.Skipped != 0 {
				t.Errorf("skipped %d", r.Skipped)
			}
		})
	}
}

func TestFixtureDetails(t *testing.T) {
	t.Run("re-emitted totals", func(t *testing.T) {
		r := fixture(t, "01900000-0001-7000-8000-000000000001")
		if r.Lines != 11 || r.Entries != 11 || r.Torn {
			t.Errorf("lines %d entries %d torn %v", r.Lines, r.Entries, r.Torn)
		}
		if r.FirstPrompt != "fix the build" || r.FinalText != "Fixed the build." {
			t.Errorf("first prompt %q, final text %q", r.FirstPrompt, r.FinalText)
		}
		lines := []int{}
		for _, x := range r.Responses {
			lines = append(lines, x.Line)
		}
		if !reflect.DeepEqual(lines, []int{5, 8, 10}) {
			t.Errorf("response lines %v, want [5 8 10]", lines)
		}
		if r.Source != "cli" || r.Originator != "codex_cli_rs" || r.CLIVersion != "0.60.1" || r.Cwd != "/work/reemit" {
			t.Errorf("identity: %+v", r)
		}
	})
	t.Run("counter restart keeps per-response times", func(t *testing.T) {
		r := fixture(t, "01900000-0002-7000-8000-000000000002")
		last := r.Responses[len(r.Responses)-1]
		if got, want := last.Time, transcript.ParseTime("2026-01-02T13:01:44.000Z"); got != want {
			t.Errorf("time %d, want %d", got, want)
		}
		if r.End-r.Start != (10904-100)*1000 {
			t.Errorf("span %d", r.End-r.Start)
		}
	})
	t.Run("rollback", func(t *testing.T) {
		r := fixture(t, "01900000-0004-7000-8000-000000000004")
		if len(r.Aborted) != 1 || r.Aborted[0].Reason != "interrupted" || r.Rollbacks != 1 {
			t.Errorf("aborted %+v rollbacks %d", r.Aborted, r.Rollbacks)
		}
		if r.FirstPrompt != "first try" || len(r.LastPrompts) != 2 || r.LastPrompts[1].Text != "second try" {
			t.Errorf("prompts %q %+v", r.FirstPrompt, r.LastPrompts)
		}
		want := []FileChange{{Path: `C:\work\rollback\Script\a.lua`, Change: "update", Action: ActionEdit}}
		if len(r.Calls) != 1 || !reflect.DeepEqual(r.Calls[0].Files, want) || r.Calls[0].Result != ResultOK {
			t.Errorf("calls %+v", r.Calls)
		}
	})
	t.Run("fork parent", func(t *testing.T) {
		r := fixture(t, "019f0000-0000-7000-8000-00000000000a")
		want := outcomes{"shell_command": {"ok": 1, "error": 1}, "collaboration.spawn_agent": {"ok": 1}}
		if got := callOutcomes(r.Calls); !reflect.DeepEqual(got, want) {
			t.Errorf("calls %v, want %v", got, want)
		}
		if r.Fork || r.CopiedCalls != 0 || !reflect.DeepEqual(r.Children, []string{"019f0000-1000-7000-8000-00000000000b"}) {
			t.Errorf("fork %v copied %d children %v", r.Fork, r.CopiedCalls, r.Children)
		}
		if c := r.Calls[2]; !c.HasExit || c.ExitCode != 2 || c.Command != "ls missing" {
			t.Errorf("failed call %+v", c)
		}
	})
	t.Run("fork child", func(t *testing.T) {
		r := fixture(t, "019f0000-1000-7000-8000-00000000000b")
		if !r.Fork || r.CopyStart != 2 || r.CopyEnd != 9 || r.CopiedResponses != 1 || r.CopiedCalls != 1 {
			t.Errorf("fork %v copy [%d,%d) copied responses %d calls %d", r.Fork, r.CopyStart, r.CopyEnd, r.CopiedResponses, r.CopiedCalls)
		}
		if r.ForkedFrom != "019f0000-0000-7000-8000-00000000000a" || r.RootID != r.ForkedFrom || r.AgentNickname != "Noether" ||
			r.Source != "subagent" || r.Subagent != "thread_spawn" || r.AgentPath != "/root/timer_audit" {
			t.Errorf("identity %+v", r)
		}
		if r.Calls[0].ID != "call_p0" || !r.Calls[0].Copied {
			t.Errorf("copied call %+v", r.Calls[0])
		}
		for _, x := range r.OwnResponses() {
			if x.Model != "gpt-5.4-mini" {
				t.Errorf("own response model %q", x.Model)
			}
		}
		want := outcomes{"exec": {"ok": 1}, "apply_patch": {"ok": 1}}
		if got := callOutcomes(r.OwnCalls()); !reflect.DeepEqual(got, want) {
			t.Errorf("own calls %v, want %v", got, want)
		}
		files := []FileChange{
			{Path: "/work/fam/src/timer.lua", Change: "update", Action: ActionEdit},
			{Path: "/work/fam/src/new.lua", Change: "add", Action: ActionWrite},
			{Path: "/work/fam/old.lua", Change: "delete", Action: ActionEdit},
		}
		if got := r.OwnCalls()[1].Files; !reflect.DeepEqual(got, files) {
			t.Errorf("patch files %+v", got)
		}
		if r.FinalText != "Timers audited: two leaks." || r.FirstPrompt != "" {
			t.Errorf("final %q first prompt %q", r.FinalText, r.FirstPrompt)
		}
	})
	t.Run("torn last line", func(t *testing.T) {
		r := fixture(t, "01900000-0007-7000-8000-000000000007")
		if !r.Torn || r.Lines != 4 || r.Skipped != 0 || r.Entries != 4 {
			t.Errorf("torn %v lines %d skipped %d entries %d", r.Torn, r.Lines, r.Skipped, r.Entries)
		}
	})
	t.Run("calls without output", func(t *testing.T) {
		r := fixture(t, "01900000-0008-7000-8000-000000000008")
		if len(r.Calls) != 2 {
			t.Fatalf("calls %+v", r.Calls)
		}
		a, b := r.Calls[0], r.Calls[1]
		if a.Result != NoResult || a.OutputLine != 0 || a.Command != "sleep 100" {
			t.Errorf("call a %+v", a)
		}
		if b.Result != ResultRunning || b.OutputLine != 7 || b.Command != "npm run dev" {
			t.Errorf("call b %+v", b)
		}
	})
	t.Run("aborted turn", func(t *testing.T) {
		r := fixture(t, "01900000-0009-7000-8000-000000000009")
		if len(r.Aborted) != 1 || r.Aborted[0].Line != 7 {
			t.Errorf("aborted %+v", r.Aborted)
		}
		if got := callOutcomes(r.Calls); !reflect.DeepEqual(got, outcomes{"shell_command": {"rejected": 1}}) {
			t.Errorf("calls %v", got)
		}
		if r.LastPrompts[len(r.LastPrompts)-1].Text != "stop, do less" {
			t.Errorf("last prompts %+v", r.LastPrompts)
		}
	})
	t.Run("unpriced model", func(t *testing.T) {
		r := fixture(t, "01900000-0011-7000-8000-000000000011")
		if r.ModelProvider != "ollama-launch" || len(r.APIErrors) != 1 || !strings.Contains(r.APIErrors[0].Message, "does not support tools") {
			t.Errorf("provider %q errors %+v", r.ModelProvider, r.APIErrors)
		}
		if m := r.UsageByModel(); m["kimi-k2.5:cloud"].Total() != 1580 || len(m) != 1 {
			t.Errorf("by model %+v", m)
		}
	})
}

func TestFixtureUnknownTypesKept(t *testing.T) {
	path, _ := filepath.Glob(filepath.Join(fixtureHome, "archived_sessions", "*0010.jsonl"))
	f, err := os.Open(path[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(context.Background(), f)
	var got []string
	for rd.Scan() {
		e := rd.Entry()
		got = append(got, e.Type+"/"+e.Item+"="+e.Kind.String())
	}
	want := []string{"session_meta/=meta", "hologram/=other", "response_item/hologram_call=other",
		"event_msg/quantum_event=other", "turn_context/=meta", "event_msg/user_message=prompt", "event_msg/token_count=token_count"}
	if rd.Err() != nil || rd.Skipped() != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("err %v skipped %d\ngot  %q\nwant %q", rd.Err(), rd.Skipped(), got, want)
	}
}

func TestAssignOwnersFamily(t *testing.T) {
	parent := fixture(t, "019f0000-0000-7000-8000-00000000000a")
	child := fixture(t, "019f0000-1000-7000-8000-00000000000b")
	orphan := fixture(t, "019f0000-4000-7000-8000-00000000000d")

	// The child's copied response and call are the parent's first ones.
	if child.Responses[0].Key != parent.Responses[0].Key || child.Calls[0].Key != parent.Calls[0].Key {
		t.Fatalf("copied keys differ from the parent's")
	}
	owned := AssignOwners([]*Rollout{child, orphan, parent})
	sum := func(r *Rollout, o Owned) (u Usage, calls int) {
		for i, x := range r.Responses {
			if o.Responses[i] {
				u.Add(x.Usage)
			}
		}
		for i := range r.Calls {
			if o.Calls[i] {
				calls++
			}
		}
		return u, calls
	}
	// Parent 3450 and 3 calls; child 2940 and 2 own calls (the copy of
	// call_p0 and of the 1040 response stay the parent's); the orphan's
	// parent is absent, so it owns its 2 copied responses (520 + 730) as
	// well as its own 830.
	cases := []struct {
		r          *Rollout
		o          Owned
		total      int64
		calls      int
		fromAbsent int
		missing    bool
	}{
		{child, owned[0], 2940, 2, 0, false},
		{orphan, owned[1], 2080, 0, 2, true},
		{parent, owned[2], 3450, 3, 0, false},
	}
	for _, c := range cases {
		u, calls := sum(c.r, c.o)
		if u.Total() != c.total || calls != c.calls || c.o.FromAbsentParent != c.fromAbsent || c.o.ParentMissing != c.missing {
			t.Errorf("%s: total %d calls %d from absent %d missing %v; want %d %d %d %v", c.r.ID,
				u.Total(), calls, c.o.FromAbsentParent, c.o.ParentMissing, c.total, c.calls, c.fromAbsent, c.missing)
		}
	}
	// Without the parent, the child owns its copies: counted once, where seen first.
	owned = AssignOwners([]*Rollout{child})
	if u, calls := sum(child, owned[0]); u.Total() != 2940+1040 || calls != 3 || !owned[0].ParentMissing || owned[0].FromAbsentParent != 2 {
		t.Errorf("child alone: total %d calls %d %+v", u.Total(), calls, owned[0])
	}
	// The same file listed twice counts once.
	owned = AssignOwners([]*Rollout{parent, parent})
	a, _ := sum(parent, owned[0])
	b, _ := sum(parent, owned[1])
	if a.Total() != 3450 || b.Total() != 0 {
		t.Errorf("duplicate: %d and %d", a.Total(), b.Total())
	}
}

func TestZstdRollout(t *testing.T) {
	src, _ := filepath.Glob(filepath.Join(fixtureHome, "sessions", "*", "*", "*", "*0003.jsonl"))
	plain, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	dir := filepath.Join(home, "sessions", "2026", "01", "02")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	zpath := filepath.Join(dir, filepath.Base(src[0])+".zst")
	if err := os.WriteFile(zpath, enc.EncodeAll(plain, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	files := discoverFiles(home)
	if len(files) != 1 || !strings.HasSuffix(files[0].Path, ".zst") {
		t.Fatalf("discover: %+v", files)
	}
	z, err := SummarizeFile(context.Background(), files[0])
	if err != nil {
		t.Fatal(err)
	}
	p := fixture(t, "01900000-0003-7000-8000-000000000003")
	if z.Total != p.Total || z.Prompts != p.Prompts || z.Lines != p.Lines || z.ID != p.ID || z.FileID != p.FileID {
		t.Errorf("zst %+v\nplain %+v", z, p)
	}
	// A plain sibling wins over the .zst.
	if err := os.WriteFile(strings.TrimSuffix(zpath, ".zst"), plain, 0o644); err != nil {
		t.Fatal(err)
	}
	files = discoverFiles(home)
	if len(files) != 1 || strings.HasSuffix(files[0].Path, ".zst") {
		t.Errorf("with a plain sibling: %+v", files)
	}
	// A corrupt zstd stream is an error of that file, not a panic; a .zst
	// that is not zstd at all (the magic number tells) is read as lines.
	bad := filepath.Join(dir, "rollout-2026-01-02T10-00-00-01900000-0099-7000-8000-000000000099.jsonl.zst")
	os.WriteFile(bad, append(append([]byte(nil), zstdMagic...), "garbage after the magic"...), 0o644)
	if _, err := Summarize(context.Background(), bad); err == nil {
		t.Errorf("corrupt zst: no error")
	}
	os.WriteFile(bad, []byte("not zstd at all\n"), 0o644)
	if r, err := Summarize(context.Background(), bad); err != nil || r.Skipped != 1 {
		t.Errorf("a .zst that is not zstd: %v %+v", err, r)
	}
}
