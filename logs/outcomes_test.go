package logs

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A scripted session for outcome tests: each step is one minute after the
// previous one, in the main file unless side is set (then in a subagent file).
type oStep struct {
	tool, input string // a call ("" for none)
	result      string // ok, error, rejected, or "" (no result)
	text        string // a text reply
	apiError    bool   // an API error written as a reply
	prLink      string // a pr-link line
	side        bool
}

func bash(cmd string) string { return fmt.Sprintf(`{"command":%q}`, cmd) }
func file(p string) string {
	return fmt.Sprintf(`{"file_path":%q,"old_string":"a","new_string":"b"}`, p)
}

// oSession writes the steps as one session (ending well before testNow, so it
// is not live unless live is set) and returns it with its snapshot.
func oSession(t *testing.T, live bool, steps ...oStep) (*Snapshot, *Session) {
	t.Helper()
	start := testNow.Add(-3 * time.Hour)
	var main, side strings.Builder
	for i, st := range steps {
		ts := start.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		w := &main
		extra := ""
		if st.side {
			w, extra = &side, `,"agentId":"a1b2c3"`
		}
		uuid, msg := fmt.Sprintf("u%03d", i), fmt.Sprintf("msg_%03d", i)
		id := fmt.Sprintf("toolu_%03d", i)
		switch {
		case st.tool != "":
			w.WriteString(asst(sidA, uuid, ts, msg, "claude-sonnet-4-5", toolUse(id, st.tool, st.input), 1, 10, 0, 0, extra))
			var isErr *bool
			switch st.result {
			case "ok":
				isErr = no
			case "error":
				isErr = yes
			case "rejected":
				isErr = yes
			}
			if st.result != "" {
				text := "done"
				switch st.result {
				case "error":
					text = "Exit code 1\nFAIL"
				case "rejected":
					text = "The user doesn't want to proceed with this tool use."
				}
				w.WriteString(user(sidA, uuid+"r", ts, toolResult(id, text, isErr), extra))
			}
		case st.apiError:
			fmt.Fprintf(w, `{"type":"assistant","sessionId":%q,"uuid":%q,"timestamp":%q,"cwd":"/home/dev/proj","isApiErrorMessage":true,"message":{"id":%q,"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 529 overloaded"}],"usage":{"input_tokens":0,"output_tokens":0}}}`+"\n", sidA, uuid, ts, msg)
		case st.prLink != "":
			fmt.Fprintf(w, `{"type":"pr-link","sessionId":%q,"timestamp":%q,"prUrl":%q}`+"\n", sidA, ts, st.prLink)
		default:
			w.WriteString(asst(sidA, uuid, ts, msg, "claude-sonnet-4-5", fmt.Sprintf(`{"type":"text","text":%q}`, st.text), 1, 10, 0, 0, extra))
		}
	}
	files := map[string]string{"-home-dev-proj/" + sidA + ".jsonl": user(sidA, "u-first", start.Add(-time.Second).Format(time.RFC3339), `"go"`, "") + main.String()}
	if side.Len() > 0 {
		files["-home-dev-proj/"+sidA+"/subagents/agent-a1b2c3.jsonl"] = side.String()
	}
	mtime, now := start.Add(time.Duration(len(steps))*time.Minute), testNow
	if live {
		now = mtime.Add(time.Minute)
	}
	sn := snapshotOf(t, []string{writeTree(t, files, mtime)}, now)
	if len(sn.Sessions) != 1 {
		t.Fatalf("%d sessions", len(sn.Sessions))
	}
	return sn, sn.Sessions[0]
}

func TestOutcomeKinds(t *testing.T) {
	ok := func(tool, input string) oStep { return oStep{tool: tool, input: input, result: "ok"} }
	fail := func(tool, input string) oStep { return oStep{tool: tool, input: input, result: "error"} }
	reply := oStep{text: "done"}
	cases := []struct {
		name  string
		live  bool
		steps []oStep
		want  []OutcomeKind
	}{
		{"nothing", false, []oStep{ok("Read", file("/p/a.go")), reply}, nil},
		{"edit", false, []oStep{ok("Edit", file("/p/a.go")), reply}, []OutcomeKind{OutcomeFilesChanged}},
		{"write, multiedit, notebookedit", false, []oStep{ok("Write", file("/p/a.go")), ok("MultiEdit", file("/p/b.go")),
			ok("NotebookEdit", `{"notebook_path":"/p/n.ipynb"}`), reply}, []OutcomeKind{OutcomeFilesChanged}},
		{"a subagent's edit", false, []oStep{{tool: "Edit", input: file("/p/a.go"), result: "ok", side: true}, reply}, []OutcomeKind{OutcomeFilesChanged}},
		{"failed or rejected edit", false, []oStep{fail("Edit", file("/p/a.go")), {tool: "Write", input: file("/p/b.go"), result: "rejected"}, reply}, nil},
		{"edit with no result", false, []oStep{{tool: "Edit", input: file("/p/a.go")}, reply}, nil},

		{"commit", false, []oStep{ok("Bash", bash(`git add . && git commit -m "fix"`)), reply}, []OutcomeKind{OutcomeCommitObserved}},
		{"commit heredoc", false, []oStep{ok("Bash", bash("git commit -m \"$(cat <<'EOF'\nFix it\nEOF\n)\"")), reply}, []OutcomeKind{OutcomeCommitObserved}},
		{"commit --dry-run", false, []oStep{ok("Bash", bash(`git commit --dry-run -m x`)), reply}, nil},
		{"commit failed", false, []oStep{fail("Bash", bash(`git commit -m x`)), reply}, nil},
		{"commit in an echo", false, []oStep{ok("Bash", bash(`echo "git commit -m x"`)), reply}, nil},

		{"push", false, []oStep{ok("Bash", bash(`git push -u origin main`)), reply}, []OutcomeKind{OutcomePushed}},
		{"push failed", false, []oStep{fail("Bash", bash(`git push`)), reply}, nil},
		{"push --dry-run", false, []oStep{ok("Bash", bash(`git push --dry-run`)), reply}, nil},

		{"gh pr create", false, []oStep{ok("Bash", bash(`gh pr create --title x --body y`)), reply}, []OutcomeKind{OutcomePROpened}},
		{"pr-link line", false, []oStep{{prLink: "https://github.com/o/r/pull/7"}, reply}, []OutcomeKind{OutcomePROpened}},
		{"gh pr create failed", false, []oStep{fail("Bash", bash(`gh pr create --title x`)), reply}, nil},
		{"gh pr view", false, []oStep{ok("Bash", bash(`gh pr view 7`)), reply}, nil},

		{"tests passed", false, []oStep{ok("Bash", bash(`cd /p && go test ./...`)), reply}, []OutcomeKind{OutcomeTestsPassed}},
		{"tests failed", false, []oStep{fail("Bash", bash(`uv run pytest -q`)), reply}, []OutcomeKind{OutcomeTestsFailed}},
		{"tests: the last run decides", false, []oStep{ok("Bash", bash(`npx vitest run`)), fail("Bash", bash(`npx vitest run`)), reply},
			[]OutcomeKind{OutcomeTestsFailed}},
		{"tests: failed then fixed", false, []oStep{fail("Bash", bash(`go test ./...`)), ok("Edit", file("/p/a.go")), ok("Bash", bash(`go test ./...`)), reply},
			[]OutcomeKind{OutcomeFilesChanged, OutcomeTestsPassed}},
		{"tests: a rejected run says nothing", false, []oStep{ok("Bash", bash(`go test ./...`)), {tool: "Bash", input: bash(`go test ./...`), result: "rejected"}, reply},
			[]OutcomeKind{OutcomeTestsPassed}},
		{"not a test", false, []oStep{ok("Bash", bash(`go vet ./...`)), reply}, nil},

		{"build passed", false, []oStep{ok("Bash", bash(`make`)), reply}, []OutcomeKind{OutcomeBuildPassed}},
		{"build failed", false, []oStep{fail("Bash", bash(`go build ./...`)), reply}, []OutcomeKind{OutcomeBuildFailed}},
		{"build and test in one command", false, []oStep{ok("Bash", bash(`go build ./... && go test ./...`)), reply},
			[]OutcomeKind{OutcomeTestsPassed, OutcomeBuildPassed}},
		{"not a build", false, []oStep{ok("Bash", bash(`go run ./cmd/build`)), reply}, nil},

		{"ended on an API error", false, []oStep{reply, {apiError: true}}, []OutcomeKind{OutcomeEndedOnError}},
		{"an API error, then a reply", false, []oStep{{apiError: true}, reply}, nil},
		{"ended on a failed call", false, []oStep{reply, fail("Read", file("/p/gone.go"))}, []OutcomeKind{OutcomeEndedOnError}},
		{"a failed call, then a reply", false, []oStep{fail("Read", file("/p/gone.go")), reply}, nil},
		{"ended on a rejected call", false, []oStep{reply, {tool: "Bash", input: bash("rm -rf /"), result: "rejected"}}, nil},
		{"a live session's failed last call", true, []oStep{reply, fail("Read", file("/p/gone.go"))}, nil},
		{"a live session's API error", true, []oStep{reply, {apiError: true}}, []OutcomeKind{OutcomeEndedOnError}},
		{"a subagent's failed last call", false, []oStep{reply, {tool: "Read", input: file("/p/x"), result: "error", side: true}}, nil},

		{"everything", false, []oStep{fail("Bash", bash("go test ./...")), ok("Edit", file("/p/a.go")), ok("Bash", bash("go test ./...")),
			ok("Bash", bash("go build ./...")), ok("Bash", bash(`git commit -am fix`)), ok("Bash", bash("git push")),
			{prLink: "https://github.com/o/r/pull/8"}, {apiError: true}}, []OutcomeKind{OutcomeFilesChanged, OutcomeCommitObserved,
			OutcomePushed, OutcomePROpened, OutcomeTestsPassed, OutcomeBuildPassed, OutcomeEndedOnError}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn, s := oSession(t, c.live, c.steps...)
			if got := sn.OutcomeKindsOf(s); !reflect.DeepEqual(got, c.want) && len(got)+len(c.want) > 0 {
				t.Errorf("outcomes %v, want %v", got, c.want)
			}
			for _, k := range OutcomeKinds {
				want := false
				for _, w := range c.want {
					want = want || w == k
				}
				if sn.HasOutcome(s, k) != want {
					t.Errorf("HasOutcome(%s) = %v, want %v", k, !want, want)
				}
			}
		})
	}
}

func TestOutcomeEvidenceCalls(t *testing.T) {
	sn, s := oSession(t, false,
		oStep{tool: "Bash", input: bash("go test ./..."), result: "ok"},
		oStep{tool: "Bash", input: bash("go test ./..."), result: "error"},
		oStep{prLink: "https://github.com/o/r/pull/9"},
		oStep{text: "done"})
	outs := sn.Outcomes(s)
	if len(outs) != 2 {
		t.Fatalf("outcomes %+v", outs)
	}
	if o := outs[0]; o.Kind != OutcomePROpened || o.Call != nil || o.PRURL != "https://github.com/o/r/pull/9" {
		t.Errorf("pr_opened from the pr-link line: %+v", o)
	}
	if o := outs[1]; o.Kind != OutcomeTestsFailed || o.Call == nil || o.Call.Key != IDKey("toolu_001") {
		t.Errorf("tests_failed decided by the last run (toolu_001): %+v", o)
	}
}

func TestRecoveries(t *testing.T) {
	type rec struct {
		failed, recovered string
		steps             int
	}
	ok := func(tool, input string) oStep { return oStep{tool: tool, input: input, result: "ok"} }
	fail := func(tool, input string) oStep { return oStep{tool: tool, input: input, result: "error"} }
	cases := []struct {
		name       string
		steps      []oStep
		want       []rec
		unresolved []string
	}{
		{"same command after a fix", []oStep{fail("Bash", bash("go test ./...")), ok("Read", file("/p/a.go")), ok("Edit", file("/p/a.go")),
			ok("Bash", bash("go test ./..."))}, []rec{{"toolu_000", "toolu_003", 2}}, nil},
		{"same command behind cd and a pipe", []oStep{fail("Bash", bash("cd /repo && go test ./... 2>&1 | tail -20")), ok("Bash", bash("go test ./..."))},
			[]rec{{"toolu_000", "toolu_001", 0}}, nil},
		{"another command is no recovery", []oStep{fail("Bash", bash("go test ./...")), ok("Bash", bash("go test ./api/..."))}, nil, []string{"toolu_000"}},
		{"the same command failing again", []oStep{fail("Bash", bash("make")), fail("Bash", bash("make"))}, nil, []string{"toolu_000", "toolu_001"}},
		{"two failures, one recovery", []oStep{fail("Bash", bash("make")), fail("Bash", bash("make")), ok("Bash", bash("make"))},
			[]rec{{"toolu_000", "toolu_002", 1}, {"toolu_001", "toolu_002", 0}}, nil},
		{"an ok run before the failure", []oStep{ok("Bash", bash("make")), fail("Bash", bash("make"))}, nil, []string{"toolu_001"}},
		{"same file", []oStep{fail("Edit", file("/p/a.go")), ok("Read", file("/p/a.go")), ok("Edit", `{"file_path":"/p/a.go","old_string":"x","new_string":"y"}`)},
			[]rec{{"toolu_000", "toolu_002", 1}}, nil},
		{"Edit then Write of the same file: another tool", []oStep{fail("Edit", file("/p/a.go")), ok("Write", file("/p/a.go"))}, nil, []string{"toolu_000"}},
		{"another file", []oStep{fail("Edit", file("/p/a.go")), ok("Edit", file("/p/b.go"))}, nil, []string{"toolu_000"}},
		{"other tools: the same input", []oStep{fail("WebFetch", `{"url":"https://x.test"}`), ok("WebFetch", `{"url":"https://x.test"}`)},
			[]rec{{"toolu_000", "toolu_001", 0}}, nil},
		{"other tools: another input", []oStep{fail("WebFetch", `{"url":"https://x.test"}`), ok("WebFetch", `{"url":"https://y.test"}`)}, nil, []string{"toolu_000"}},
		{"a rejection is not a failure", []oStep{{tool: "Bash", input: bash("make"), result: "rejected"}, ok("Bash", bash("make"))}, nil, nil},
		{"recovered in a subagent", []oStep{fail("Bash", bash("make")), {tool: "Bash", input: bash("make"), result: "ok", side: true}},
			[]rec{{"toolu_000", "toolu_001", 0}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn, s := oSession(t, false, c.steps...)
			var got []rec
			for _, r := range sn.Recoveries(s) {
				got = append(got, rec{idOf(t, s, r.Failed.Key), idOf(t, s, r.Recovered.Key), r.Steps})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("recoveries %v, want %v", got, c.want)
			}
			var ids []string
			for _, u := range sn.Unresolved(s) {
				ids = append(ids, idOf(t, s, u.Key))
			}
			if !reflect.DeepEqual(ids, c.unresolved) {
				t.Errorf("unresolved %v, want %v", ids, c.unresolved)
			}
		})
	}
}

// idOf names a call key of the scripted session by its tool_use id.
func idOf(t *testing.T, s *Session, key uint64) string {
	t.Helper()
	for i := range 100 {
		if id := fmt.Sprintf("toolu_%03d", i); IDKey(id) == key {
			return id
		}
	}
	t.Fatalf("no call with key %x", key)
	return ""
}

func TestParseOutcomeKind(t *testing.T) {
	for _, k := range OutcomeKinds {
		if got, err := ParseOutcomeKind(string(k)); err != nil || got != k {
			t.Errorf("%s: %v %v", k, got, err)
		}
	}
	if k, err := ParseOutcomeKind(""); err != nil || k != "" {
		t.Errorf("empty: %v %v", k, err)
	}
	_, err := ParseOutcomeKind("committed")
	var le *Error
	if err == nil || !errors.As(err, &le) || le.Code != CodeInvalidArgument || le.Argument != "outcome" {
		t.Errorf("bad kind: %v", err)
	}
}

// The fast path of classifyShell agrees with the lexer on every command of
// the command tests, on their targets, and on plain-word variations.
func TestClassifyShellFastPath(t *testing.T) {
	cmds := []string{"go test ./...", "  go   test\t./...  ", "ls -la /tmp", "npm run build", "timeout 60 go test ./...",
		"make", "make -C dir test", "git push -u origin main", "gh pr create --title x", "uv run pytest -q",
		"python -m pytest", "env GOFLAGS=-count=1 go test ./...", "cd /repo", "bash -c ls", "sh", "if true", "x=1 go test",
		"go test -run=TestA ./...", "go test ./... 2", "cargo +nightly test", "npx vitest run", "docker buildx build .",
		"CGO_ENABLED=0 GOOS=linux do build -o app .", "timeout 60 do build", "env X=1 then make"}
	for _, c := range classifyCases {
		cmds = append(cmds, c.cmd, CommandTarget(c.cmd))
	}
	fast := 0
	for _, cmd := range cmds {
		if cmd == "" {
			continue
		}
		parts := commandParts(cmd)
		wantKinds, wantKey := kindSet(kindsOf(parts)), idHash("$ "+CommandTarget(cmd))
		if _, ok := plainWords(cmd); ok {
			fast++
		}
		if k, key := classifyShell(cmd); k != wantKinds || key != wantKey {
			t.Errorf("classifyShell(%q) = %b %x, the lexer says %b %x (target %q)", cmd, k, key, wantKinds, wantKey, CommandTarget(cmd))
		}
	}
	if fast < 20 {
		t.Errorf("only %d commands took the fast path", fast)
	}
}
