package tools

// Paging (SPEC §7): for every list, following next_cursor to the end gives
// the same items, in the same order, as one unbounded internal listing, with
// no duplicates; a cursor from before an append still works; a forged cursor,
// or one used with other filters, is invalid_argument.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// pagedList is one list that pages, and how to name its items.
type pagedList struct {
	tool string
	args map[string]any // without cursor
	list string         // the list's field in the answer
	id   func(item map[string]any) string
	// want is the unbounded internal listing, in the list's order.
	want func(t *testing.T, snap *logs.Snapshot) []string
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func callMap(t *testing.T, spec Spec, args map[string]any) (map[string]any, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	out, err := spec.Call(context.Background(), raw)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(out)
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m, nil
}

// followPages calls the tool, then again with each next_cursor, until none.
func followPages(t *testing.T, spec Spec, pl pagedList) (ids []string, pages int) {
	t.Helper()
	args := map[string]any{}
	for k, v := range pl.args {
		args[k] = v
	}
	for {
		out, err := callMap(t, spec, args)
		if err != nil {
			t.Fatalf("%s %v: %v", pl.tool, args, err)
		}
		pages++
		items, _ := out[pl.list].([]any)
		for _, it := range items {
			ids = append(ids, pl.id(it.(map[string]any)))
		}
		next := str(out["next_cursor"])
		if next == "" {
			return ids, pages
		}
		if len(items) == 0 {
			t.Fatalf("%s %v: an empty page with a next_cursor", pl.tool, args)
		}
		if pages > 10000 {
			t.Fatalf("%s: paging does not end", pl.tool)
		}
		args["cursor"] = next
	}
}

// checkPaging follows every page and compares with the internal listing.
func checkPaging(t *testing.T, specs map[string]Spec, snap *logs.Snapshot, pl pagedList) {
	t.Helper()
	got, pages := followPages(t, specs[pl.tool], pl)
	want := pl.want(t, snap)
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Errorf("%s %v: %s returned twice", pl.tool, pl.args, id)
		}
		seen[id] = true
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s %v: %d items over %d pages differ from the %d of the internal listing\n%s", pl.tool, pl.args, len(got), pages, len(want),
			firstDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
	}
	t.Logf("%s %v: %d items over %d pages", pl.tool, pl.args, len(got), pages)
	if len(want) > 1 && pages < 2 {
		t.Errorf("%s %v: one page for %d items; the test does not page", pl.tool, pl.args, len(want))
	}
}

// Internal listings: every matching item, in list order, unbounded.

func wantSessions(repo string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		var ss []*logs.Session
		for _, s := range snap.Sessions {
			if logs.MatchRepo(s, repo) {
				ss = append(ss, s)
			}
		}
		sort.SliceStable(ss, func(i, j int) bool { return sessionPos(&ss[i]).compare(sessionPos(&ss[j])) < 0 })
		var out []string
		for _, s := range ss {
			out = append(out, s.ID+" "+redactString(clip(s.Cwd)))
		}
		return out
	}
}

func wantSearch(query string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		m, err := logs.CompileSearch(query, false)
		if err != nil {
			t.Fatal(err)
		}
		res, err := snap.Search(context.Background(), logs.SearchQuery{Sessions: snap.Sessions, Limit: math.MaxInt32, Redact: func(s string) string { return s }}, m)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.Session.ID+" "+h.UUID+" "+h.Role)
		}
		return out
	}
}

func wantTouches(path, repo string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		pm, err := logs.CompilePath(path)
		if err != nil {
			t.Fatal(err)
		}
		var ss []*logs.Session
		for _, s := range snap.Sessions {
			if logs.MatchRepo(s, repo) {
				ss = append(ss, s)
			}
		}
		touches := touchesNewestFirst(snap, pm, ss)
		sort.SliceStable(touches, func(i, j int) bool { return touchPos(&touches[i]).compare(touchPos(&touches[j])) < 0 })
		var out []string
		for _, tc := range touches {
			out = append(out, tc.Session.ID+" "+tc.Call.ID()+" "+rfc(tc.Call.Time))
		}
		return out
	}
}

func wantRows(groupBy ...string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		rep := snap.Report(logs.ReportQuery{GroupBy: groupBy})
		var out []string
		for _, r := range rep.Rows { // sorted by key
			var k []string
			for _, g := range groupBy {
				v, _ := r.Key(g)
				if g == "model" {
					v = modelName(v)
				}
				k = append(k, v)
			}
			out = append(out, strings.Join(k, " "))
		}
		return out
	}
}

func rowID(groupBy ...string) func(map[string]any) string {
	return func(m map[string]any) string {
		var k []string
		for _, g := range groupBy {
			k = append(k, str(m[g]))
		}
		return strings.Join(k, " ")
	}
}

func wantFindings(t *testing.T, snap *logs.Snapshot) []string {
	scan, err := snap.ScanSecrets(context.Background(), logs.SecretQuery{Sessions: snap.Sessions, FindLine: findLineSecrets, FindText: findTextSecrets})
	if err != nil {
		t.Fatal(err)
	}
	fs := scan.Findings
	sort.SliceStable(fs, func(i, j int) bool { return findingPos(&fs[i]).compare(findingPos(&fs[j])) < 0 })
	var out []string
	for _, f := range fs {
		out = append(out, redactString(clip(f.File))+":"+strconv.Itoa(f.Line)+" "+f.Rule)
	}
	return out
}

func wantEntries(session string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		entries, _, err := snap.Window(context.Background(), resolved(t, snap, session), 0, math.MaxInt32)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i, e := range entries {
			out = append(out, strconv.Itoa(i)+" "+e.UUID)
		}
		return out
	}
}

func wantFailing(session string) func(*testing.T, *logs.Snapshot) []string {
	return func(t *testing.T, snap *logs.Snapshot) []string {
		s := resolved(t, snap, session)
		calls, _ := logs.FailingCalls(s, snap.IsLive(s), math.MaxInt)
		sort.SliceStable(calls, func(i, j int) bool { return failingPos(&calls[i]).compare(failingPos(&calls[j])) < 0 })
		var out []string
		for _, c := range calls {
			out = append(out, rfc(c.Time)+" "+c.Name()+" "+source(c.Sidechain))
		}
		return out
	}
}

// fixturePagedLists are the lists of every paging tool over the fixture
// tree, with limits small enough to page.
func fixturePagedLists() []pagedList {
	return []pagedList{
		{tool: "list_recent_sessions", args: map[string]any{"limit": 2}, list: "sessions",
			id: sessionID, want: wantSessions("")},
		{tool: "list_recent_sessions", args: map[string]any{"limit": 1, "repo": "dev"}, list: "sessions",
			id: sessionID, want: wantSessions("dev")},
		{tool: "search_transcripts", args: map[string]any{"query": "the", "limit": 3}, list: "matches",
			id: func(m map[string]any) string {
				return str(m["session_id"]) + " " + str(m["entry_uuid"]) + " " + str(m["role"])
			},
			want: wantSearch("the")},
		{tool: "file_activity", args: map[string]any{"path": "**/*", "limit": 2}, list: "touches",
			id: touchID, want: wantTouches("**/*", "")},
		{tool: "usage_report", args: map[string]any{"group_by": "session,model", "limit": 3}, list: "rows",
			id: rowID("session", "model"), want: wantRows("session", "model")},
		{tool: "usage_report", args: map[string]any{"group_by": "day", "limit": 1}, list: "rows",
			id: rowID("day"), want: wantRows("day")},
		{tool: "scan_secrets", args: map[string]any{"max_findings": 2}, list: "findings",
			id: func(m map[string]any) string { return str(m["file"]) + ":" + str(m["line"]) + " " + str(m["rule"]) }, want: wantFindings},
		{tool: "summarize_tool_calls", args: map[string]any{"session": "b86f27bf", "limit": 1}, list: "failing_calls",
			id: func(m map[string]any) string {
				return str(m["timestamp"]) + " " + str(m["tool_name"]) + " " + str(m["source"])
			},
			want: wantFailing("b86f27bf")},
	}
}

func resolved(t *testing.T, snap *logs.Snapshot, session string) *logs.Session {
	t.Helper()
	s, err := snap.Resolve(session, logs.ResolveOptions{IncludeCurrent: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sessionID names a listed session (one id can be two sessions, in two
// project folders).
func sessionID(m map[string]any) string { return str(m["session_id"]) + " " + str(m["cwd"]) }

func touchID(m map[string]any) string {
	return str(m["session_id"]) + " " + str(m["tool_use_id"]) + " " + str(m["timestamp"])
}

// tailIDs follows a transcript from offset 0 and numbers what comes back.
func tailIDs(t *testing.T, spec Spec, session string, limit int) ([]string, int) {
	t.Helper()
	args := map[string]any{"session": session, "offset": 0, "limit": limit}
	var ids []string
	pages := 0
	for {
		out, err := callMap(t, spec, args)
		if err != nil {
			t.Fatalf("tail %v: %v", args, err)
		}
		pages++
		off, _ := strconv.Atoi(str(out["offset"]))
		for i, e := range out["entries"].([]any) {
			ids = append(ids, strconv.Itoa(off+i)+" "+str(e.(map[string]any)["uuid"]))
		}
		next := str(out["next_cursor"])
		if next == "" {
			return ids, pages
		}
		args["cursor"] = next
	}
}

func fixtureSpecs(t *testing.T) (string, *logs.Store, map[string]Spec) {
	t.Helper()
	root, st := fixtureStore(t)
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: st}) {
		specs[s.Tool.Name] = s
	}
	return root, st, specs
}

func TestPagingReachesEverything(t *testing.T) {
	_, st, specs := fixtureSpecs(t)
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range fixturePagedLists() {
		checkPaging(t, specs, snap, pl)
	}
	// A transcript read page by page from its first entry, whatever the
	// page size.
	for _, limit := range []int{1, 2, 5} {
		got, _ := tailIDs(t, specs["tail_agent_log"], "dae68d1d", limit)
		if want := wantEntries("dae68d1d")(t, snap); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("tail_agent_log limit %d by cursor: %v, want %v", limit, got, want)
		}
	}
}

// TestPagingOnGeneratedHistory pages the generated corpus, where the answer
// budget, not the limit, ends most pages.
func TestPagingOnGeneratedHistory(t *testing.T) {
	root := generatedRoot(t)
	st := rootsStore(t, []string{root}, generatedNow, time.UTC)
	specs := map[string]Spec{}
	for _, s := range All(Deps{Store: st}) {
		specs[s.Tool.Name] = s
	}
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range []pagedList{
		{tool: "list_recent_sessions", args: map[string]any{}, list: "sessions",
			id: sessionID, want: wantSessions("")},
		{tool: "list_recent_sessions", args: map[string]any{"limit": 200, "detail": true}, list: "sessions",
			id: sessionID, want: wantSessions("")},
		{tool: "file_activity", args: map[string]any{"path": "**/*.go", "limit": 500}, list: "touches",
			id: touchID, want: wantTouches("**/*.go", "")},
		{tool: "usage_report", args: map[string]any{"group_by": "session,model", "limit": 1000}, list: "rows",
			id: rowID("session", "model"), want: wantRows("session", "model")},
	} {
		checkPaging(t, specs, snap, pl)
	}
}

// appendLine appends one JSONL line to the file.
func appendLine(t *testing.T, path, line string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestCursorSurvivesAppend: a cursor taken before the history grows still
// opens, and the page after it holds none of the first page's items.
func TestCursorSurvivesAppend(t *testing.T) {
	root, _, specs := fixtureSpecs(t)
	main, _ := filepath.Glob(filepath.Join(root, "-home-dev-split-usage", "*.jsonl"))
	if len(main) != 1 {
		t.Fatalf("split-usage files: %v", main)
	}
	for _, pl := range fixturePagedLists() {
		first, err := callMap(t, specs[pl.tool], pl.args)
		if err != nil {
			t.Fatal(err)
		}
		cursor := str(first["next_cursor"])
		if cursor == "" {
			t.Fatalf("%s %v: no next_cursor on the first page", pl.tool, pl.args)
		}
		// The history grows: a new prompt (with the search word) in an
		// existing session, a new session beside it.
		appendLine(t, main[0], `{"type":"user","sessionId":"dae68d1d-9462-4262-8e64-9f368a38164f","uuid":"append-`+pl.tool+`","timestamp":"2026-11-30T11:59:00.000Z","cwd":"/home/dev/split-usage","message":{"role":"user","content":"the appended prompt"}}`)
		args := map[string]any{"cursor": cursor}
		for k, v := range pl.args {
			args[k] = v
		}
		next, err := callMap(t, specs[pl.tool], args)
		if err != nil {
			t.Fatalf("%s: the cursor from before the append: %v", pl.tool, err)
		}
		firstIDs := map[string]bool{}
		for _, it := range first[pl.list].([]any) {
			firstIDs[pl.id(it.(map[string]any))] = true
		}
		for _, it := range next[pl.list].([]any) {
			if id := pl.id(it.(map[string]any)); firstIDs[id] {
				t.Errorf("%s: %s is on the first page and again after the append", pl.tool, id)
			}
		}
	}
	// A transcript page after an append continues exactly where it was.
	tail := specs["tail_agent_log"]
	first, err := callMap(t, tail, map[string]any{"session": "dae68d1d", "offset": 0, "limit": 2})
	if err != nil {
		t.Fatal(err)
	}
	appendLine(t, main[0], `{"type":"user","sessionId":"dae68d1d-9462-4262-8e64-9f368a38164f","uuid":"append-tail","timestamp":"2026-11-30T11:59:30.000Z","cwd":"/home/dev/split-usage","message":{"role":"user","content":"more"}}`)
	next, err := callMap(t, tail, map[string]any{"session": "dae68d1d", "offset": 0, "limit": 2, "cursor": first["next_cursor"]})
	if err != nil || str(next["offset"]) != "2" {
		t.Fatalf("tail after an append: offset %v, %v", next["offset"], err)
	}
	// A rewritten transcript makes the cursor stale.
	b, _ := os.ReadFile(main[0])
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if err := os.WriteFile(main[0], []byte(strings.Join(append(lines[2:3:3], lines...), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := callMap(t, tail, map[string]any{"session": "dae68d1d", "offset": 0, "limit": 2, "cursor": first["next_cursor"]}); !isInvalid(err, "cursor") {
		t.Errorf("tail with a cursor into a rewritten transcript: %v, want invalid_argument cursor", err)
	}
}

func isInvalid(err error, arg string) bool {
	var le *logs.Error
	return errors.As(err, &le) && le.Code == logs.CodeInvalidArgument && le.Argument == arg
}

// TestForgedCursor: a cursor that was altered, truncated, made up, made by
// another tool or used with other filters is invalid_argument.
func TestForgedCursor(t *testing.T) {
	_, _, specs := fixtureSpecs(t)
	for _, pl := range fixturePagedLists() {
		first, err := callMap(t, specs[pl.tool], pl.args)
		if err != nil {
			t.Fatal(err)
		}
		cursor := str(first["next_cursor"])
		flip := []byte(cursor)
		flip[len(flip)/2] ^= 1
		other := map[string]any{"repo": "no-such-repo-at-all"}
		if pl.tool == "summarize_tool_calls" {
			other = map[string]any{"session": "45aa96c3"}
		}
		for name, c := range map[string]any{
			"flipped": string(flip), "cut": cursor[:len(cursor)-3], "made up": "AQ" + strings.Repeat("A", 40), "not base64": "%%%",
			"other tool": cursorOfOtherTool(t, specs, pl.tool), "long": strings.Repeat("A", 5000),
		} {
			args := map[string]any{"cursor": c}
			for k, v := range pl.args {
				args[k] = v
			}
			if _, err := callMap(t, specs[pl.tool], args); !isInvalid(err, "cursor") {
				t.Errorf("%s with a %s cursor: %v, want invalid_argument on cursor", pl.tool, name, err)
			}
		}
		args := map[string]any{"cursor": cursor}
		for k, v := range pl.args {
			args[k] = v
		}
		for k, v := range other {
			args[k] = v
		}
		if _, err := callMap(t, specs[pl.tool], args); !isInvalid(err, "cursor") {
			t.Errorf("%s: a cursor used with other filters %v: %v, want invalid_argument on cursor", pl.tool, other, err)
		}
		// The page size may change between pages.
		args = map[string]any{"cursor": cursor}
		for k, v := range pl.args {
			args[k] = v
		}
		for _, k := range []string{"limit", "max_findings"} {
			if _, ok := args[k]; ok {
				args[k] = 5
			}
		}
		if _, err := callMap(t, specs[pl.tool], args); err != nil {
			t.Errorf("%s: the next page with another page size: %v", pl.tool, err)
		}
	}
}

// cursorOfOtherTool is a valid cursor of a tool other than tool.
func cursorOfOtherTool(t *testing.T, specs map[string]Spec, tool string) string {
	t.Helper()
	other := "list_recent_sessions"
	args := map[string]any{"limit": 1}
	if tool == other {
		other, args = "usage_report", map[string]any{"limit": 1}
	}
	out, err := callMap(t, specs[other], args)
	if err != nil {
		t.Fatal(err)
	}
	return str(out["next_cursor"])
}

// TestTailOffsetAround reads chosen parts of a transcript: from the first,
// a middle and the last entry, and centred on entries near both ends.
func TestTailOffsetAround(t *testing.T) {
	_, st, specs := fixtureSpecs(t)
	snap, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const session = "b86f27bf"
	all := wantEntries(session)(t, snap)
	n := len(all)
	if n < 8 {
		t.Fatalf("session %s has %d entries; the cases need more", session, n)
	}
	uuid := func(i int) string { return strings.Fields(all[i])[1] }
	tail := specs["tail_agent_log"]
	cases := []struct {
		name      string
		args      map[string]any
		from, got int // the entries [from, from+got) of the transcript
	}{
		{"first entry", map[string]any{"offset": 0, "limit": 3}, 0, 3},
		{"a middle entry", map[string]any{"offset": n / 2, "limit": 3}, n / 2, 3},
		{"the last entry", map[string]any{"offset": n - 1, "limit": 3}, n - 1, 1},
		{"past the end", map[string]any{"offset": n + 5, "limit": 3}, n + 5, 0},
		{"around the middle", map[string]any{"around": uuid(n / 2), "limit": 5}, n/2 - 2, 5},
		{"around the first", map[string]any{"around": uuid(0), "limit": 5}, 0, 5},
		{"around the second", map[string]any{"around": uuid(1), "limit": 4}, 0, 4},
		{"around the last", map[string]any{"around": uuid(n - 1), "limit": 5}, n - 5, 5},
		{"around the next to last", map[string]any{"around": uuid(n - 2), "limit": 6}, n - 6, 6},
		{"around with a limit beyond the transcript", map[string]any{"around": uuid(3), "limit": 1000}, 0, n},
		{"the tail", map[string]any{"limit": 3}, n - 3, 3},
	}
	for _, c := range cases {
		c.args["session"] = session
		out, err := callMap(t, tail, c.args)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, e := range out["entries"].([]any) {
			got = append(got, str(e.(map[string]any)["uuid"]))
		}
		var want []string
		for i := c.from; i < c.from+c.got; i++ {
			want = append(want, uuid(i))
		}
		if !slices.Equal(got, want) || str(out["offset"]) != strconv.Itoa(c.from) || str(out["total_entries"]) != strconv.Itoa(n) {
			t.Errorf("%s: offset %v of %v, entries %v; want offset %d of %d, %v", c.name, out["offset"], out["total_entries"], got, c.from, n, want)
		}
		wantNext := c.from+c.got < n
		if (str(out["next_cursor"]) != "") != wantNext {
			t.Errorf("%s: next_cursor %q, want one: %v", c.name, out["next_cursor"], wantNext)
		}
	}
	for name, args := range map[string]map[string]any{
		"unknown around":    {"around": "no-such-uuid"},
		"offset and around": {"offset": 1, "around": uuid(1)},
		"negative offset":   {"offset": -1},
	} {
		args["session"] = session
		_, err := callMap(t, tail, args)
		want := "around"
		if name != "unknown around" {
			want = "offset"
		}
		if !isInvalid(err, want) {
			t.Errorf("%s: %v, want invalid_argument on %s", name, err, want)
		}
	}
}

// TestPageKeepsTheFirstItems: page, which holds only a few candidates at a
// time, returns what a stable sort of every admitted item gives, with few or
// many ties, before and after a cursor.
func TestPageKeepsTheFirstItems(t *testing.T) {
	type item struct {
		s     string
		n, id int64
	}
	key := func(it *item) pos { return pos{S: it.s, N: []int64{it.n}} }
	for _, size := range []int{0, 1, 63, 64, 129, 1000, 5000} {
		for _, spread := range []int64{3, 1 << 20} {
			items := make([]item, size)
			x := uint64(size)*2654435761 + uint64(spread)
			for i := range items {
				x = x*6364136223846793005 + 1442695040888963407
				items[i] = item{s: string(rune('a' + x>>60%3)), n: int64(x>>33) % spread, id: int64(i)}
			}
			for _, limit := range []int{0, 1, 50, 500, math.MaxInt32} {
				for _, after := range []*pos{nil, {S: "b", N: []int64{spread / 2}}} {
					c := &CursorArg{after: after}
					var want []item
					for i := range items {
						if c.admits(key(&items[i])) {
							want = append(want, items[i])
						}
					}
					sort.SliceStable(want, func(i, j int) bool { return key(&want[i]).compare(key(&want[j])) < 0 })
					more := len(want) > limit
					want = want[:min(limit, len(want))]
					got, pg, gotMore := page(items, key, c, limit)
					if !slices.Equal(got, want) || gotMore != more || len(pg.keys) != len(got) {
						t.Fatalf("%d items, spread %d, limit %d, after %v: got %d items (more %v), want %d (more %v)",
							size, spread, limit, after, len(got), gotMore, len(want), more)
					}
				}
			}
		}
	}
}

// TestSessionWindowPagesAlike: a page over the window of a snapshot-ordered
// list (most recently active first) is the page over the whole list, with
// ties of end time at the page's edges and cursors inside runs of ties.
func TestSessionWindowPagesAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 3000; round++ {
		ss := make([]*logs.Session, rng.IntN(40))
		for i := range ss {
			ss[i] = &logs.Session{ID: fmt.Sprintf("s%d", i), Key: fmt.Sprintf("k%03d", i), End: int64(rng.IntN(6))}
		}
		sort.Slice(ss, func(i, j int) bool {
			if ss[i].End != ss[j].End {
				return ss[i].End > ss[j].End
			}
			return ss[i].Key < ss[j].Key
		})
		limit := 1 + rng.IntN(5)
		c := &CursorArg{}
		for pages := 0; pages < 50; pages++ {
			want, wantPg, wantMore := page(ss, sessionPos, c, limit)
			got, gotPg, gotMore := page(sessionWindow(ss, c, limit), sessionPos, c, limit)
			if !slices.Equal(got, want) || gotMore != wantMore || len(gotPg.keys) != len(wantPg.keys) {
				t.Fatalf("round %d page %d: window gives %d sessions (more %v), the whole list %d (more %v)", round, pages, len(got), gotMore, len(want), wantMore)
			}
			if !wantMore {
				break
			}
			last := sessionPos(&want[len(want)-1])
			c = &CursorArg{after: &last}
		}
	}
}
