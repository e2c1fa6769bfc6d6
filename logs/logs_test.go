package logs

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/claudecode"
	"github.com/agent-activity/agent-activity/transcript"
)

var testNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	sidA = "aaaaaaaa-1111-4111-8111-111111111111"
	sidB = "bbbbbbbb-2222-4222-8222-222222222222"
)

// writeTree writes files (path relative to root -> content) and sets every
// mtime to mtime.
func writeTree(t *testing.T, files map[string]string, mtime time.Time) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var old = testNow.Add(-48 * time.Hour)

func snap(t *testing.T, root string) *Snapshot {
	t.Helper()
	return snapshotOf(t, []string{root}, testNow)
}

// asst builds an assistant line with one content block.
func asst(sid, uuid, ts, msgID, model, block string, in, out, cc, cr int64, extra string) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":%q,"uuid":%q,"timestamp":%q,"cwd":"/home/dev/proj","isSidechain":false%s,"message":{"id":%q,"model":%q,"role":"assistant","content":[%s],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}}`+"\n",
		sid, uuid, ts, extra, msgID, model, block, in, out, cc, cr)
}

func user(sid, uuid, ts, content string, extra string) string {
	return fmt.Sprintf(`{"type":"user","sessionId":%q,"uuid":%q,"timestamp":%q,"cwd":"/home/dev/proj"%s,"message":{"role":"user","content":%s}}`+"\n",
		sid, uuid, ts, extra, content)
}

func toolUse(id, name, input string) string {
	return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":%s}`, id, name, input)
}

func toolResult(id, text string, isErr *bool) string {
	e := ""
	if isErr != nil {
		e = fmt.Sprintf(`,"is_error":%v`, *isErr)
	}
	return fmt.Sprintf(`[{"type":"tool_result","tool_use_id":%q,"content":%q%s}]`, id, text, e)
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

const textBlock = `{"type":"text","text":"hello"}`

func totalOf(s *Snapshot) Usage {
	var u Usage
	for rs, r := range s.AllResponses() {
		u.Add(rs.UsageOf(r))
	}
	return u
}

func TestSplitResponseTakesLargestCopy(t *testing.T) {
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "claude-sonnet-4-5-20250929", `{"type":"thinking","thinking":"x"}`, 10, 12, 100, 1000, "") +
		asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_1", "claude-sonnet-4-5-20250929", textBlock, 10, 40, 100, 1000, "") +
		asst(sidA, "u3", "2026-11-28T10:00:02.000Z", "msg_1", "claude-sonnet-4-5-20250929", toolUse("toolu_1", "Bash", `{"command":"ls"}`), 10, 187, 100, 1000, "")
	sn := snap(t, writeTree(t, map[string]string{"-home-dev-proj/" + sidA + ".jsonl": main}, old))
	got := totalOf(sn)
	want := Usage{Input: 10, Output: 187, CacheCreate5m: 100, CacheRead: 1000}
	if got != want {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
	s := sn.Sessions[0]
	if s.MessageCount != 1 || len(s.Main.Calls) != 1 {
		t.Errorf("message_count = %d, calls = %d; want 1, 1", s.MessageCount, len(s.Main.Calls))
	}
}

func TestCopiesDifferingInInputAreTwoResponses(t *testing.T) {
	// Round two (SPEC §3): the same message.id with other input-side usage is
	// another response (relays reuse one id), so both count; with the same
	// input side and a tie in output, it is one response counted once.
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 50, 9, 0, 0, "") +
		asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_1", "m", textBlock, 7, 9, 3, 0, "") +
		asst(sidA, "u3", "2026-11-28T10:00:02.000Z", "msg_1", "m", textBlock, 7, 9, 3, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": main}, old))
	if got, want := totalOf(sn), (Usage{Input: 57, Output: 18, CacheCreate5m: 3}); got != want {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
	if mc := sn.Sessions[0].MessageCount; mc != 2 {
		t.Fatalf("message_count %d, want 2", mc)
	}
}

func TestProxyZeroUsageOnEarlyLines(t *testing.T) {
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_p", "claude-opus-4.6-1m", textBlock, 0, 0, 0, 0, "") +
		asst(sidA, "u2", "2026-11-28T10:00:01.000Z", "msg_p", "claude-opus-4.6-1m", toolUse("toolu_p", "Read", `{"file_path":"/a/b.go"}`), 1200, 340, 0, 5000, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": main}, old))
	if got, want := totalOf(sn), (Usage{Input: 1200, Output: 340, CacheRead: 5000}); got != want {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
	if c := sn.Sessions[0].Usage.Total.Cost; c.Status() != "estimated" {
		t.Errorf("proxy model should be priced via normalization; status %s, unpriced %v", c.Status(), c.UnpricedModels())
	}
}

func TestMessageInTwoSessionsCountsOnceInEarliest(t *testing.T) {
	a := asst(sidA, "u1", "2026-11-27T10:00:00.000Z", "msg_shared", "m", textBlock, 100, 20, 0, 0, "")
	b := asst(sidB, "u1", "2026-11-27T10:00:00.000Z", "msg_shared", "m", textBlock, 100, 20, 0, 0, "") + // replayed copy
		asst(sidB, "u9", "2026-11-28T09:00:00.000Z", "msg_own", "m", textBlock, 5, 1, 0, 0, "")
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": a, "p/" + sidB + ".jsonl": b}, old)
	sn := snap(t, root)
	byID := map[string]*Session{}
	for _, s := range sn.Sessions {
		byID[s.ID] = s
	}
	if got := byID[sidA].Usage.Total.Input; got != 100 {
		t.Errorf("A input = %d, want 100", got)
	}
	if got := byID[sidB].Usage.Total.Input; got != 5 {
		t.Errorf("B input = %d, want 5 (the replayed message belongs to A)", got)
	}
	if got := byID[sidB].MessageCount; got != 2 {
		t.Errorf("B message_count = %d, want 2 (as the file shows them)", got)
	}
}

func TestSidechainCopyOfMainMessageCountsAsMain(t *testing.T) {
	main := asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 100, 20, 0, 0, "")
	side := strings.Replace(asst(sidA, "u1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 100, 20, 0, 0, ""), `"isSidechain":false`, `"isSidechain":true`, 1) +
		strings.Replace(asst(sidA, "s2", "2026-11-28T10:00:05.000Z", "msg_side", "m", textBlock, 7, 3, 0, 0, ""), `"isSidechain":false`, `"isSidechain":true`, 1)
	sn := snap(t, writeTree(t, map[string]string{
		"p/" + sidA + ".jsonl": main,
		"p/" + sidA + "/subagents/agent-aside_question-0123456789abcdef.jsonl": side,
	}, old))
	u := sn.Sessions[0].Usage
	if u.Main.Input != 100 || u.Sidechain.Input != 7 || u.Total.Input != 107 {
		t.Fatalf("main %d sidechain %d total %d; want 100, 7, 107", u.Main.Input, u.Sidechain.Input, u.Total.Input)
	}
}

func TestOutcomes(t *testing.T) {
	ts := "2026-11-28T10:00:00.000Z"
	lines := asst(sidA, "a1", ts, "msg_1", "m", toolUse("t_ok", "Bash", `{"command":"ls"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a2", ts, "msg_1", "m", toolUse("t_okabsent", "Read", `{"file_path":"/x"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a3", ts, "msg_1", "m", toolUse("t_err", "Bash", `{"command":"false"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a4", ts, "msg_1", "m", toolUse("t_rej1", "Edit", `{"file_path":"/x"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a5", ts, "msg_1", "m", toolUse("t_rej2", "Write", `{"file_path":"/y"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a6", ts, "msg_1", "m", toolUse("t_killed", "Bash", `{"command":"sleep 99"}`), 1, 1, 0, 0, "") +
		asst(sidA, "a7", ts, "msg_1", "m", toolUse("t_none", "Bash", `{"command":"wait"}`), 1, 1, 0, 0, "") +
		user(sidA, "r1", ts, toolResult("t_ok", "file", no), "") +
		user(sidA, "r2", ts, toolResult("t_okabsent", "content", nil), "") +
		user(sidA, "r3", ts, toolResult("t_err", "Exit code 1\nboom", yes), "") +
		user(sidA, "r4", ts, toolResult("t_rej1", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", yes), "") +
		user(sidA, "r5", ts, toolResult("t_rej2", "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.", yes), "") +
		user(sidA, "r6", ts, toolResult("t_killed", "Exit code 137\n[Request interrupted by user for tool use]", yes), "")
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old)
	sn := snap(t, root)
	s := sn.Sessions[0]
	got := CountCalls(s, false).Total
	want := OutcomeCounts{OK: 2, Error: 1, Rejected: 3, Pending: 1, Total: 7}
	if got != want {
		t.Fatalf("finished: %+v, want %+v", got, want)
	}
	got = CountCalls(s, true).Total
	want = OutcomeCounts{OK: 2, Error: 1, Rejected: 3, InProgress: 1, Total: 7}
	if got != want {
		t.Fatalf("live: %+v, want %+v", got, want)
	}
}

func TestResultBeforeCallInFileOrder(t *testing.T) {
	lines := user(sidA, "r1", "2026-11-28T10:00:01.000Z", toolResult("t_1", "Exit code 2", yes), "") +
		asst(sidA, "a1", "2026-11-28T10:00:00.000Z", "msg_1", "m", toolUse("t_1", "Bash", `{"command":"x"}`), 1, 1, 0, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	if got := CountCalls(sn.Sessions[0], false).Total; got.Error != 1 || got.Total != 1 {
		t.Fatalf("got %+v, want one error", got)
	}
}

func TestTornLastLine(t *testing.T) {
	full := user(sidA, "u1", "2026-11-28T10:00:00.000Z", `"hi"`, "") +
		asst(sidA, "a1", "2026-11-28T10:00:01.000Z", "msg_1", "m", textBlock, 3, 4, 0, 0, "")
	torn := `{"type":"assistant","sessionId":"` + sidA + `","mess`
	// Finished: the torn line counts as skipped.
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": full + torn}, old))
	s := sn.Sessions[0]
	if sn.IsLive(s) || s.SkippedLines(false) != 1 || s.Main.Entries != 2 {
		t.Fatalf("finished: live=%v skipped=%d entries=%d; want false 1 2", sn.IsLive(s), s.SkippedLines(false), s.Main.Entries)
	}
	// Live: not an entry, not skipped; it is read once it is complete.
	liveNow := time.Date(2026, 11, 28, 10, 1, 0, 0, time.UTC)
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": full + torn}, liveNow.Add(-time.Minute))
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return liveNow }, Pricing: testPricing(t)})
	sn, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s = sn.Sessions[0]
	if !sn.IsLive(s) || s.SkippedLines(true) != 0 || s.Main.Entries != 2 {
		t.Fatalf("live: live=%v skipped=%d entries=%d; want true 0 2", sn.IsLive(s), s.SkippedLines(true), s.Main.Entries)
	}
	rest := `age":{"id":"msg_2","model":"m","role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":6}},"timestamp":"2026-11-28T10:00:02.000Z"}` + "\n"
	p := filepath.Join(root, "p", sidA+".jsonl")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(rest)
	f.Close()
	sn, err = st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s = sn.Sessions[0]
	if s.Main.Entries != 3 || s.SkippedLines(true) != 0 || s.Usage.Total.Input != 8 {
		t.Fatalf("after completion: entries=%d skipped=%d input=%d; want 3 0 8", s.Main.Entries, s.SkippedLines(true), s.Usage.Total.Input)
	}
}

func TestIncrementalAppendAndReplace(t *testing.T) {
	first := asst(sidA, "a1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 10, 1, 0, 0, "")
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": first}, old)
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
	s1, _ := st.Snapshot(context.Background(), nil)
	s2, _ := st.Snapshot(context.Background(), nil)
	if s1 != s2 {
		t.Error("unchanged disk should return the same snapshot")
	}
	p := filepath.Join(root, "p", sidA+".jsonl")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(asst(sidA, "a2", "2026-11-28T10:00:05.000Z", "msg_2", "m", textBlock, 20, 2, 0, 0, ""))
	f.Close()
	s3, _ := st.Snapshot(context.Background(), nil)
	if got := totalOf(s3).Input; got != 30 {
		t.Fatalf("after append input = %d, want 30", got)
	}
	if totalOf(s1).Input != 10 {
		t.Error("an earlier snapshot changed after an append")
	}
	// Replaced by a shorter file: read again from the start.
	os.WriteFile(p, []byte(asst(sidA, "z1", "2026-11-28T11:00:00.000Z", "msg_9", "m", textBlock, 4, 1, 0, 0, "")), 0o644)
	s4, _ := st.Snapshot(context.Background(), nil)
	if got := totalOf(s4).Input; got != 4 {
		t.Fatalf("after replace input = %d, want 4", got)
	}
}

// TestRewriteBehindShortAppend: a file rewritten just before a short line
// appended earlier is read again from its start. The tail mark of a read
// that went on from an earlier one spans transcript.MarkLen bytes (the
// earlier read's last bytes and the short line: Lines.Resume), not the
// short line alone, which is all that read saw.
func TestRewriteBehindShortAppend(t *testing.T) {
	first := asst(sidA, "a1", "2026-11-28T10:00:00.000Z", "msg_1", "m", textBlock, 10, 1, 0, 0, "")
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": first}, old)
	st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t)})
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "p", sidA+".jsonl")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n")
	f.Close()
	if _, err := st.Snapshot(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// The count sits in the last 128 bytes of the first line, past its first 128.
	rewritten := strings.Replace(first, `"input_tokens":10,`, `"input_tokens":77,`, 1)
	if rewritten == first || len(first) < 2*transcript.MarkLen {
		t.Fatal("the fixture line does not have the shape the test needs")
	}
	os.WriteFile(p, []byte(rewritten+"\n"+asst(sidA, "a2", "2026-11-28T10:00:05.000Z", "msg_2", "m", textBlock, 20, 2, 0, 0, "")), 0o644)
	sn, err := st.Snapshot(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := totalOf(sn).Input; got != 97 {
		t.Fatalf("after the rewrite input = %d, want 97 (77 read again, and 20)", got)
	}
}

func TestHugeLine(t *testing.T) {
	big := strings.Repeat("A", 5<<20)
	lines := user(sidA, "u1", "2026-11-28T10:00:00.000Z", `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+big+`"}},{"type":"text","text":"see screenshot"}]`, "") +
		asst(sidA, "a1", "2026-11-28T10:00:01.000Z", "msg_1", "m", textBlock, 3, 4, 0, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	s := sn.Sessions[0]
	if s.Main.Entries != 2 || s.SkippedLines(false) != 0 || s.FirstPrompt() != "see screenshot" {
		t.Fatalf("entries=%d skipped=%d prompt=%q", s.Main.Entries, s.SkippedLines(false), s.FirstPrompt())
	}
}

func TestNoCwdIsUnverifiedWithDecodedRepo(t *testing.T) {
	line := `{"type":"user","sessionId":"` + sidA + `","uuid":"u1","timestamp":"2026-11-28T10:00:00.000Z","message":{"role":"user","content":"hi"}}` + "\n"
	sn := snap(t, writeTree(t, map[string]string{"-home-dev-widget/" + sidA + ".jsonl": line}, old))
	s := sn.Sessions[0]
	if s.Repo != "widget" || s.SchemaStatus() != "unverified" {
		t.Fatalf("repo=%q status=%s; want widget unverified", s.Repo, s.SchemaStatus())
	}
}

func TestResolve(t *testing.T) {
	twinA := "abcd1234-0000-4000-8000-000000000001"
	twinB := "abcd1234-0000-4000-8000-000000000002"
	root := writeTree(t, map[string]string{
		"p/" + twinA + ".jsonl": user(twinA, "u1", "2026-11-28T10:00:00.000Z", `"one"`, ""),
		"q/" + twinB + ".jsonl": user(twinB, "u1", "2026-11-28T11:00:00.000Z", `"two"`, ""),
		"r/" + twinB + ".jsonl": user(twinB, "u1", "2026-11-28T09:00:00.000Z", `"same id, other folder"`, ""),
	}, old)
	sn := snap(t, root)
	if len(sn.Sessions) != 3 {
		t.Fatalf("sessions = %d, want 3 (same id under two folders is two sessions)", len(sn.Sessions))
	}
	_, err := sn.Resolve("abcd1234", ResolveOptions{})
	var le *Error
	if !errors.As(err, &le) || le.Code != CodeAmbiguousSession || len(le.Candidates) != 3 {
		t.Fatalf("prefix: %v", err)
	}
	if s, err := sn.Resolve(twinA, ResolveOptions{}); err != nil || s.ID != twinA {
		t.Fatalf("full id: %v %v", s, err)
	}
	if s, err := sn.Resolve("latest", ResolveOptions{}); err != nil || s.ID != twinB || s.Project != "q" {
		t.Fatalf("latest: %+v %v", s, err)
	}
	for _, bad := range []string{"../etc", "abc", "zzzz", "abcd/1234", strings.Repeat("a", 37), "ab\x00cd"} {
		_, err := sn.Resolve(bad, ResolveOptions{})
		if !errors.As(err, &le) || le.Code != CodeInvalidArgument {
			t.Errorf("%q: %v, want invalid_argument", bad, err)
		}
	}
	_, err = sn.Resolve("ffff", ResolveOptions{})
	if !errors.As(err, &le) || le.Code != CodeSessionNotFound {
		t.Errorf("ffff: %v, want session_not_found", err)
	}
}

func TestCurrentSessionExcludedFromLatest(t *testing.T) {
	root := writeTree(t, map[string]string{
		"p/" + sidA + ".jsonl": user(sidA, "u1", "2026-11-28T10:00:00.000Z", `"older"`, ""),
	}, old)
	p := filepath.Join(root, "p", sidB+".jsonl")
	os.WriteFile(p, []byte(user(sidB, "u1", "2026-11-30T11:59:00.000Z", `"me, live"`, "")), 0o644)
	os.Chtimes(p, testNow.Add(-time.Minute), testNow.Add(-time.Minute))
	sn := snap(t, root)
	if cur := sn.Current(""); cur == nil || cur.ID != sidB {
		t.Fatalf("current = %v, want B", cur)
	}
	if s, _ := sn.Resolve("latest", ResolveOptions{}); s.ID != sidA {
		t.Errorf("latest = %s, want A (the current session is excluded)", s.ID)
	}
	if s, _ := sn.Resolve("latest", ResolveOptions{IncludeCurrent: true}); s.ID != sidB {
		t.Errorf("latest incl. current = %s, want B", s.ID)
	}
}

func TestPromptsAreHumanTextOnly(t *testing.T) {
	ts := "2026-11-28T10:00:00.000Z"
	lines := user(sidA, "u1", ts, `"real first"`, "") +
		user(sidA, "u2", ts, `"Caveat: The messages below were generated by the user while running local commands."`, `,"isMeta":true`) +
		user(sidA, "u3", ts, `"<command-name>/clear</command-name>"`, "") +
		user(sidA, "u4", ts, `"<local-command-stdout>ok</local-command-stdout>"`, "") +
		user(sidA, "u5", ts, `"This session is being continued from a previous conversation that ran out of context."`, `,"isCompactSummary":true`) +
		user(sidA, "u6", ts, `[{"type":"text","text":"<system-reminder>x</system-reminder>"}]`, "") +
		user(sidA, "u7", ts, `"<task-notification>done</task-notification>"`, "") +
		user(sidA, "u8", ts, `[{"type":"text","text":"[Request interrupted by user]"}]`, "") +
		user(sidA, "u9", ts, toolResult("t", "out", nil), "") +
		user(sidA, "u10", ts, `[{"type":"text","text":"real last"}]`, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	s := sn.Sessions[0]
	if s.Main.HumanPrompts != 2 || s.FirstPrompt() != "real first" || s.MessageCount != 2 {
		t.Fatalf("prompts=%d first=%q count=%d", s.Main.HumanPrompts, s.FirstPrompt(), s.MessageCount)
	}
	r, err := sn.Recap(context.Background(), s, 20)
	if err != nil || len(r.Prompts) != 2 || r.Prompts[1] != "real last" {
		t.Fatalf("recap prompts %v %v", r.Prompts, err)
	}
}

func TestTitleIgnoresSummariesOfOtherSessions(t *testing.T) {
	lines := `{"type":"summary","summary":"About another session","leafUuid":"elsewhere"}` + "\n" +
		`{"type":"summary","summary":"About this one","leafUuid":"u1"}` + "\n" +
		user(sidA, "u1", "2026-11-28T10:00:00.000Z", `"prompt"`, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	if got := sn.Sessions[0].Title; got != "About this one" {
		t.Fatalf("title = %q", got)
	}
	lines2 := lines + `{"type":"ai-title","aiTitle":"AI one","sessionId":"` + sidA + `"}` + "\n" + `{"type":"ai-title","aiTitle":"AI two"}` + "\n"
	sn = snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines2}, old))
	if got := sn.Sessions[0].Title; got != "AI two" {
		t.Fatalf("title = %q, want the last ai-title", got)
	}
	lines3 := lines2 + `{"type":"custom-title","customTitle":"Mine"}` + "\n"
	sn = snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines3}, old))
	if got := sn.Sessions[0].Title; got != "Mine" {
		t.Fatalf("title = %q, want the custom title", got)
	}
}

func TestSecondCountsAreNeverAdded(t *testing.T) {
	ts := "2026-11-28T10:00:00.000Z"
	main := asst(sidA, "a1", ts, "msg_1", "m", toolUse("t_agent", "Agent", `{"prompt":"look","subagent_type":"Explore"}`), 10, 5, 0, 0, "") +
		`{"type":"progress","sessionId":"` + sidA + `","timestamp":"` + ts + `","data":{"type":"agent_progress","agentId":"a123","message":{"type":"assistant","message":{"id":"msg_sub","model":"m","usage":{"input_tokens":999,"output_tokens":999}}}}}` + "\n" +
		fmt.Sprintf(`{"type":"user","sessionId":%q,"uuid":"r1","timestamp":%q,"toolUseResult":{"status":"completed","agentId":"a123","totalTokens":99999,"usage":{"input_tokens":5000,"output_tokens":5000}},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t_agent","content":"done\nagentId: a123"}]}}`, sidA, ts) + "\n"
	sub := strings.ReplaceAll(asst(sidA, "s1", ts, "msg_sub", "m", textBlock, 30, 7, 0, 0, ""), `"isSidechain":false`, `"isSidechain":true,"agentId":"a123"`)
	sn := snap(t, writeTree(t, map[string]string{
		"p/" + sidA + ".jsonl":                          main,
		"p/" + sidA + "/subagents/agent-a123.jsonl":     sub,
		"p/" + sidA + "/subagents/agent-a123.meta.json": `{"agentType":"Explore","description":"look around"}`,
	}, old))
	s := sn.Sessions[0]
	if got, want := s.Usage.Total.Usage, (Usage{Input: 40, Output: 12}); got != want {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
	if s.Usage.Sidechain.Input != 30 || len(s.Subagents) != 1 {
		t.Fatalf("sidechain %d subagents %d", s.Usage.Sidechain.Input, len(s.Subagents))
	}
	if typ, desc := s.Subagents[0].SubagentMeta(); typ != "Explore" || desc != "look around" {
		t.Fatalf("subagent meta %q %q, want Explore, look around", typ, desc)
	}
}

func TestSyntheticIsAPIErrorNotUsage(t *testing.T) {
	ts := "2026-11-28T10:00:00.000Z"
	lines := asst(sidA, "a1", ts, "0b7d1a1e-5c3f-4a5e-9c1e-2f8e6a7b9c0d", "<synthetic>", `{"type":"text","text":"API Error: 500"}`, 0, 0, 0, 0, `,"isApiErrorMessage":true`) +
		asst(sidA, "a2", ts, "msg_2", "mystery-model-9", textBlock, 100, 10, 0, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	s := sn.Sessions[0]
	if s.APIErrors != 1 || s.Usage.Total.Input != 100 {
		t.Fatalf("api_errors=%d input=%d", s.APIErrors, s.Usage.Total.Input)
	}
	if st := s.Usage.Total.Cost.Status(); st != "unknown" || fmt.Sprint(s.Usage.Total.Cost.UnpricedModels()) != "[mystery-model-9]" {
		t.Fatalf("status=%s unpriced=%v", st, s.Usage.Total.Cost.UnpricedModels())
	}
}

func TestCacheSplit(t *testing.T) {
	withSplit := `{"type":"assistant","sessionId":"` + sidA + `","uuid":"a1","timestamp":"2026-11-28T10:00:00.000Z","message":{"id":"msg_1","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":1000,"cache_creation":{"ephemeral_5m_input_tokens":400,"ephemeral_1h_input_tokens":600}}}}` + "\n"
	noSplit := asst(sidA, "a2", "2026-11-28T10:00:00.000Z", "msg_2", "claude-sonnet-4-5", textBlock, 0, 0, 1000, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": withSplit + noSplit}, old))
	u := totalOf(sn)
	if u.CacheCreate5m != 1400 || u.CacheCreate1h != 600 {
		t.Fatalf("5m=%d 1h=%d; want 1400 600", u.CacheCreate5m, u.CacheCreate1h)
	}
	// 1 in ($3) + 1 out ($15) + 1400 5m ($3.75) + 600 1h ($6), per million.
	want := (1*3 + 1*15 + 1400*3.75 + 600*6.0) / 1e6
	if got := sn.Sessions[0].Usage.Total.Cost.USD(); fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", want) {
		t.Fatalf("cost = %.6f, want %.6f", got, want)
	}
}

func TestParseTimeRange(t *testing.T) {
	la, _ := time.LoadLocation("America/Los_Angeles")
	now := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC) // 2026-11-29 19:00 in LA
	cases := []struct {
		since, until string
		loc          *time.Location
		want         TimeRange
	}{
		{"2026-11-28", "", time.UTC, TimeRange{Since: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC).UnixMilli()}},
		{"", "2026-11-28", time.UTC, TimeRange{Until: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC).UnixMilli()}},
		{"yesterday", "yesterday", la, TimeRange{Since: time.Date(2026, 11, 28, 0, 0, 0, 0, la).UnixMilli(), Until: time.Date(2026, 11, 29, 0, 0, 0, 0, la).UnixMilli()}},
		{"today", "", la, TimeRange{Since: time.Date(2026, 11, 29, 0, 0, 0, 0, la).UnixMilli()}},
		{"24h", "", time.UTC, TimeRange{Since: now.Add(-24 * time.Hour).UnixMilli()}},
		{"7d", "1h", time.UTC, TimeRange{Since: now.Add(-7 * 24 * time.Hour).UnixMilli(), Until: now.Add(-time.Hour).UnixMilli()}},
		{"2026-11-28T09:00:00Z", "2026-11-28T11:00:00+01:00", time.UTC, TimeRange{Since: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC).UnixMilli(), Until: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC).UnixMilli()}},
	}
	for _, c := range cases {
		got, err := ParseTimeRange(c.since, c.until, now, c.loc)
		if err != nil || got != c.want {
			t.Errorf("(%q,%q) = %+v, %v; want %+v", c.since, c.until, got, err, c.want)
		}
	}
	for _, bad := range [][2]string{{"last tuesday", ""}, {"", "-5h"}, {"2026-13-01", ""}, {"today", "yesterday"}} {
		if _, err := ParseTimeRange(bad[0], bad[1], now, time.UTC); err == nil {
			t.Errorf("(%q,%q): want an error", bad[0], bad[1])
		}
	}
}

func TestUsageReportDaysInZone(t *testing.T) {
	lines := asst(sidA, "a1", "2026-11-25T22:30:00.000Z", "msg_1", "m", textBlock, 100, 0, 0, 0, "") +
		asst(sidA, "a2", "2026-11-26T01:30:00.000Z", "msg_2", "m", textBlock, 10, 0, 0, 0, "") +
		asst(sidA, "a3", "2026-11-26T09:00:00.000Z", "msg_3", "m", textBlock, 1, 0, 0, 0, "")
	root := writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old)
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	la, _ := time.LoadLocation("America/Los_Angeles")
	for _, c := range []struct {
		loc  *time.Location
		want string
	}{
		{time.UTC, "2026-11-25=100 2026-11-26=11 "},
		{tokyo, "2026-11-26=111 "},           // 07:30, 10:30, 18:00 JST
		{la, "2026-11-25=110 2026-11-26=1 "}, // 14:30, 17:30 PST, 01:00 PST next day
	} {
		st := NewStore(Config{Agents: testAgents, Roots: []string{root}, Now: func() time.Time { return testNow }, Pricing: testPricing(t), Location: c.loc})
		sn, _ := st.Snapshot(context.Background(), nil)
		rep := sn.Report(ReportQuery{GroupBy: []string{"day"}})
		var got strings.Builder
		for _, r := range rep.Rows {
			fmt.Fprintf(&got, "%s=%d ", r.Vals[0], r.Usage.Input) // grouped by day alone
		}
		if got.String() != c.want {
			t.Errorf("%s: %s, want %s", c.loc, got.String(), c.want)
		}
	}
}

func TestPathMatcher(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"api.ts", "/home/dev/app/src/api.ts", true},
		{"src/api.ts", "/home/dev/app/src/api.ts", true},
		{"i.ts", "/home/dev/app/src/api.ts", false},
		{"/home/dev/app/src/api.ts", "/home/dev/app/src/api.ts", true},
		{"**/*.ts", "/home/dev/app/src/api.ts", true},
		{"**/*.ts", "/home/dev/app/src/api.tsx", false},
		{"src/*.ts", "/home/dev/app/src/lib/api.ts", false},
		{"src/**/*.ts", "/home/dev/app/src/lib/api.ts", true},
		{`views\form.xml`, `X:\03_ACG\Custom_Addons\mod\views\form.xml`, true},
		{"FORM.xml", `X:\03_ACG\mod\views\form.xml`, true},
	}
	for _, c := range cases {
		pm, err := CompilePath(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		if got := pm.Match(c.path); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestUsageReportRangeInsideQuarterHour(t *testing.T) {
	lines := asst(sidA, "a1", "2026-11-26T10:05:00.000Z", "msg_1", "m", textBlock, 100, 0, 0, 0, "") +
		asst(sidA, "a2", "2026-11-26T10:10:00.000Z", "msg_2", "m", textBlock, 10, 0, 0, 0, "") +
		asst(sidA, "a3", "2026-11-26T10:20:00.000Z", "msg_3", "m", textBlock, 1, 0, 0, 0, "")
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines}, old))
	for _, c := range []struct {
		since, until string
		want         int64
	}{
		{"2026-11-26T10:07:00Z", "", 11},
		{"2026-11-26T10:05:00Z", "2026-11-26T10:10:00Z", 100},
		{"2026-11-26T10:05:00.001Z", "2026-11-26T10:20:00.001Z", 11},
		{"", "2026-11-26T10:15:00Z", 110},
	} {
		tr, err := ParseTimeRange(c.since, c.until, testNow, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if got := sn.Report(ReportQuery{GroupBy: []string{"day"}, Range: tr}).Totals.Input; got != c.want {
			t.Errorf("[%s, %s): input %d, want %d", c.since, c.until, got, c.want)
		}
	}
}

func TestLiveWindow(t *testing.T) {
	s := &Session{}
	for _, c := range []struct {
		mtime, end time.Time
		want       bool
	}{
		{testNow.Add(-time.Minute), testNow.Add(-time.Minute), true},
		{testNow.Add(-11 * time.Minute), testNow.Add(-11 * time.Minute), false},
		{testNow.Add(time.Minute), testNow, true},                          // a clock a little ahead
		{testNow.Add(48 * time.Hour), testNow, false},                      // dated far in the future: not live
		{testNow.Add(-time.Minute), testNow.Add(-11 * time.Minute), true},  // lines within the window plus 2 minutes of slack
		{testNow.Add(-time.Minute), testNow.Add(-13 * time.Minute), false}, // lines older: a copied or synced file
		{testNow.Add(-time.Minute), testNow.AddDate(0, -7, 0), false},      // seven months old, fresh mtime
	} {
		s = &Session{End: c.end.UnixMilli()}
		s.noteModTime(c.mtime)
		if got := s.IsLive(testNow, 10*time.Minute); got != c.want {
			t.Errorf("mtime now%+v: live %v, want %v", c.mtime.Sub(testNow), got, c.want)
		}
	}
}

// TestTailLimitIsASuffix: a short tail is exactly the end of a long one, usage
// placement included (a response split across the cut shows no usage again).
func TestTailLimitIsASuffix(t *testing.T) {
	var lines strings.Builder
	for i := 0; i < 30; i++ {
		ts := fmt.Sprintf("2026-11-28T10:00:%02d.000Z", i)
		lines.WriteString(asst(sidA, fmt.Sprintf("a%d", i), ts, fmt.Sprintf("msg_%d", i/3), "claude-sonnet-4-5", textBlock, 10, int64(i), 0, 0, ""))
	}
	sn := snap(t, writeTree(t, map[string]string{"p/" + sidA + ".jsonl": lines.String()}, old))
	s := sn.Sessions[0]
	all, total, err := sn.Tail(context.Background(), s, 1000)
	if err != nil || total != 30 || len(all) != 30 {
		t.Fatalf("full tail: %d of %d, %v", len(all), total, err)
	}
	for _, limit := range []int{1, 2, 4, 7, 29, 30} {
		got, total, err := sn.Tail(context.Background(), s, limit)
		if err != nil || total != 30 {
			t.Fatalf("limit %d: total %d, %v", limit, total, err)
		}
		render := func(es []Entry) string {
			var b strings.Builder
			for _, e := range es {
				u := e.Usage
				e.Usage = nil
				fmt.Fprintf(&b, "%+v usage=", e)
				if u != nil {
					fmt.Fprintf(&b, "%+v", *u)
				}
				b.WriteByte('\n')
			}
			return b.String()
		}
		if g, w := render(got), render(all[30-limit:]); g != w {
			t.Errorf("limit %d:\n got %s\nwant %s", limit, g, w)
		}
	}
}

// testAgents are the formats every test store reads.
var testAgents = []transcript.Agent{claudecode.Agent{}}

// TestPathMatcherSimplifiedGlobs: a leading "**/" dropped from an unrooted
// glob, and "*" or "**" matching every path, answer as the full translation
// does, on random globs and paths.
func TestPathMatcherSimplifiedGlobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"**/", "**", "*", "?", "a", "b", "/", ".ts", "x/", "[ab]"}
	pathParts := []string{"a", "b", "/", ".ts", "x", "ab", "/home/"}
	simplified := 0
	for round := 0; round < 20000; round++ {
		var g strings.Builder
		for n := 1 + rng.IntN(5); n > 0; n-- {
			g.WriteString(parts[rng.IntN(len(parts))])
		}
		pattern := g.String()
		pm, err := CompilePath(pattern)
		if err != nil {
			continue
		}
		norm := normPath(strings.TrimSpace(pattern))
		if !strings.ContainsAny(norm, "*?[") {
			continue
		}
		rooted := strings.HasPrefix(norm, "/") || (len(norm) > 1 && norm[1] == ':')
		full, _, err := globRegexp(norm, rooted)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if pm.all || pm.re.String() != full.String() {
			simplified++
		}
		for k := 0; k < 20; k++ {
			var p strings.Builder
			for n := rng.IntN(6); n > 0; n-- {
				p.WriteString(pathParts[rng.IntN(len(pathParts))])
			}
			if got, want := pm.Match(p.String()), full.MatchString(p.String()); got != want {
				t.Fatalf("%q ~ %q = %v, the full translation says %v", pattern, p.String(), got, want)
			}
		}
	}
	if simplified == 0 {
		t.Fatal("no glob was simplified: the comparison proves nothing")
	}
}
