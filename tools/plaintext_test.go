package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-activity/agent-activity/logs"
)

// plantStore writes one session whose identifiers carry secrets: in the cwd
// (so repo and cwd), a tool_use_id, an agent id, a branch name, a title and a
// file path, with a subagent, and returns a store over it.
func plantStore(t *testing.T, secrets map[string]string) (string, *logs.Store) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "projects")
	sid := "5b0c2f7e-1d8a-4c3b-9e2f-6a7b8c9d0e1f"
	cwd := "/home/dev/" + secrets["cwd"]
	proj := filepath.Join(root, "-home-dev-planted")
	must(t, os.MkdirAll(filepath.Join(proj, sid, "subagents"), 0o755))
	env := func(typ, uuid, ts string, extra string) string {
		return fmt.Sprintf(`{"type":%q,"uuid":%q,"sessionId":%q,"timestamp":%q,"cwd":%q,"gitBranch":%q,"version":"2.1.90"%s}`,
			typ, uuid, sid, ts, cwd, secrets["branch"], extra)
	}
	tu := secrets["tool_use_id"]
	lines := []string{
		env("user", "u1", "2026-11-30T10:00:00.000Z", `,"message":{"role":"user","content":"fix the thing"}`),
		env("assistant", "a1", "2026-11-30T10:00:01.000Z", fmt.Sprintf(`,"message":{"id":"msg_1","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Edit","input":{"file_path":%q,"old_string":"a","new_string":"b"}}],"usage":{"input_tokens":10,"output_tokens":5}}`, tu, "/home/dev/src/"+secrets["file_path"]+"/api.ts")),
		env("user", "u2", "2026-11-30T10:00:02.000Z", fmt.Sprintf(`,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"is_error":true,"content":"failed"}]}`, tu)),
		fmt.Sprintf(`{"type":"custom-title","customTitle":%q,"sessionId":%q}`, "title "+secrets["title"], sid),
	}
	must(t, os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	agent := secrets["agent_id"]
	sub := fmt.Sprintf(`{"type":"user","uuid":"s1","sessionId":%q,"agentId":%q,"isSidechain":true,"timestamp":"2026-11-30T10:00:03.000Z","cwd":%q,"message":{"role":"user","content":"look around"}}`, sid, agent, cwd)
	must(t, os.WriteFile(filepath.Join(proj, sid, "subagents", "agent-"+agent+".jsonl"), []byte(sub+"\n"), 0o644))
	return root, newStore(t, root)
}

func newStore(t *testing.T, root string) *logs.Store {
	return rootsStore(t, []string{root}, fixtureNow, time.UTC)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// allAnswers calls every tool with the arguments that reach a session's
// strings and returns each answer's JSON text.
func allAnswers(t *testing.T, store *logs.Store) map[string]string {
	t.Helper()
	args := map[string][]string{
		"list_recent_sessions": {`{}`, `{"limit":200}`},
		"summarize_work":       {`{"since":"2000-01-01"}`},
		"tail_agent_log":       {`{"session":"latest","include_current":true}`},
		"summarize_tool_calls": {`{"session":"latest"}`},
		"session_recap":        {`{"session":"latest","include_current":true}`},
		"search_transcripts":   {`{"query":"fix"}`, `{"query":"failed"}`, `{"query":"look"}`},
		"file_activity":        {`{"path":"**/*.ts"}`, `{"path":"api.ts"}`},
		"usage_report":         {`{"group_by":"repo"}`, `{"group_by":"session,model"}`},
		"pacing_window":        {`{"hours":168}`},
		"coverage_stats":       {`{}`},
		"scan_secrets":         {`{}`},
	}
	out := map[string]string{}
	for _, spec := range All(Deps{Store: store}) {
		as, ok := args[spec.Tool.Name]
		if !ok {
			t.Fatalf("tool %s has no arguments in this test", spec.Tool.Name)
		}
		for _, a := range as {
			res, err := spec.Call(context.Background(), []byte(a))
			var b []byte
			if err != nil {
				b, _ = json.Marshal(ErrorOf(err))
			} else {
				b, _ = json.Marshal(res)
			}
			out[spec.Tool.Name+" "+a] = string(b)
		}
	}
	return out
}

// TestPlaintextBoundaryLogStrings plants secrets in the strings that name
// things rather than say things (cwd, repo, tool_use_id, agent id, branch,
// title, file path) and walks every tool's answer: none may come out.
func TestPlaintextBoundaryLogStrings(t *testing.T) {
	secrets := map[string]string{
		"cwd":         "ghp_C1x9Kq2Lm8Np3Rs7Tv4Wy6Za0Bc5Df2Gh1Jk",
		"tool_use_id": "sk-ant-api03-Tq8Zr2Lw5Xn9Vb3Mk7Jh1Gf4Ds6Ap0Qe2Rt8Yu5Io3Pa9Sd7Fg1Hj4KlZxAA",
		"agent_id":    "AKIAQ2W3E4R5T6Y7U8I9",
		"branch":      "glpat-xK9mP2vR7tQ4wL8nZ3jB",
		"title":       "xoxb-1234567890-Qw8Er2Ty5Ui9Op3As7Df1Gh4",
		"file_path":   "ghp_F2Lk9Jh8Gf7Ds6Ap5Qw4Er3Ty2Ui1Op0Zx9Mn",
	}
	_, store := plantStore(t, secrets)
	answers := allAnswers(t, store)
	reached := map[string]bool{}
	for call, text := range answers {
		for place, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s: the secret planted in the %s leaves in plain text", call, place)
			}
		}
		if strings.Contains(text, "[REDACTED:") {
			reached[strings.Fields(call)[0]] = true
		}
		if strings.Contains(strings.ReplaceAll(text, `\"/home/dev`, ""), `"/home/dev`) { // a whole string that is a path; excerpts of raw input are text
			t.Errorf("%s: a path leaves with its home directory", call)
		}
	}
	// The test would have seen them: the tools that show these strings did
	// show them, redacted.
	for _, tool := range []string{"list_recent_sessions", "summarize_work", "tail_agent_log", "summarize_tool_calls", "session_recap", "file_activity", "usage_report", "scan_secrets"} {
		if !reached[tool] {
			t.Errorf("%s showed no redacted string: the planted session was not reached", tool)
		}
	}
}

// TestSymlinkedSidecarFoldersAreNotFollowed links a session's tool-results/
// and subagents/ folders to folders outside the root holding a planted word:
// no tool may read them. The same folders copied inside the root are read,
// which proves the test would have found the word.
func TestSymlinkedSidecarFoldersAreNotFollowed(t *testing.T) {
	const word = "zebracornflake"
	outside := t.TempDir()
	sid := "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
	spillOut := filepath.Join(outside, "tool-results")
	subOut := filepath.Join(outside, "subagents")
	must(t, os.MkdirAll(spillOut, 0o755))
	must(t, os.MkdirAll(subOut, 0o755))
	must(t, os.WriteFile(filepath.Join(spillOut, "toolu_spill.txt"), []byte("spilled "+word+" ghp_"+strings.Repeat("Z9", 18)+"\n"), 0o644))
	sub := fmt.Sprintf(`{"type":"user","uuid":"s1","sessionId":%q,"isSidechain":true,"timestamp":"2026-11-30T10:00:03.000Z","message":{"role":"user","content":"subagent says %s"}}`, sid, word)
	must(t, os.WriteFile(filepath.Join(subOut, "agent-a1.jsonl"), []byte(sub+"\n"), 0o644))
	main := strings.Join([]string{
		fmt.Sprintf(`{"type":"user","uuid":"u1","sessionId":%q,"timestamp":"2026-11-30T10:00:00.000Z","cwd":"/w/x","message":{"role":"user","content":"go"}}`, sid),
		fmt.Sprintf(`{"type":"assistant","uuid":"a1","sessionId":%q,"timestamp":"2026-11-30T10:00:01.000Z","message":{"id":"m1","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_spill","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`, sid),
		fmt.Sprintf(`{"type":"user","uuid":"u2","sessionId":%q,"timestamp":"2026-11-30T10:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_spill","content":"<persisted-output>preview</persisted-output>"}]}}`, sid),
	}, "\n") + "\n"
	for _, linked := range []bool{true, false} {
		root := filepath.Join(t.TempDir(), "projects")
		proj := filepath.Join(root, "-w-x")
		must(t, os.MkdirAll(filepath.Join(proj, sid), 0o755))
		must(t, os.WriteFile(filepath.Join(proj, sid+".jsonl"), []byte(main), 0o644))
		for _, d := range []string{"tool-results", "subagents"} {
			if linked {
				must(t, os.Symlink(filepath.Join(outside, d), filepath.Join(proj, sid, d)))
			} else {
				must(t, os.CopyFS(filepath.Join(proj, sid, d), os.DirFS(filepath.Join(outside, d))))
			}
		}
		store := newStore(t, root)
		found := map[string]bool{}
		for _, q := range []string{`{"query":"` + word + `"}`} {
			res, err := searchSpec(store).Call(context.Background(), []byte(q))
			must(t, err)
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), word) {
				found["search_transcripts"] = true
			}
		}
		answers := allAnswers(t, store)
		for call, text := range answers {
			if strings.HasPrefix(call, "scan_secrets") && strings.Contains(text, "github_token") {
				found["scan_secrets"] = true
			}
			if strings.HasPrefix(call, "list_recent_sessions") && strings.Contains(text, `"subagent_count":1`) {
				found["subagents"] = true
			}
		}
		switch {
		case linked && len(found) > 0:
			t.Errorf("through symlinks that lead outside the root, these read what lies there: %v", found)
		case !linked && len(found) != 3:
			t.Errorf("the same folders inside the root: only %v found the planted word; the test proves nothing", found)
		}
	}
}

func searchSpec(store *logs.Store) Spec {
	for _, s := range All(Deps{Store: store}) {
		if s.Tool.Name == "search_transcripts" {
			return s
		}
	}
	panic("no search_transcripts")
}
