package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-activity/agent-activity/internal/fixture"
	"github.com/agent-activity/agent-activity/internal/stdiotest"
)

// corpusRootList is every `projects` root of ../shared/corpus/public as one
// path list (the test skips when the corpus is absent).
func corpusRootList(t *testing.T) string {
	t.Helper()
	base := filepath.Join("..", "shared", "corpus", "public")
	if _, err := os.Stat(base); err != nil {
		t.Skipf("public corpus not found at %s", base)
	}
	var roots []string
	for _, p := range fixture.ProjectRoots(base) {
		abs, _ := filepath.Abs(p)
		roots = append(roots, abs)
	}
	if len(roots) == 0 {
		t.Skip("no projects folder in the public corpus")
	}
	return strings.Join(roots, string(os.PathListSeparator))
}

// TestE2ESummarizeWorkAgrees runs summarize_work through the real binary over
// the public corpus, for every repo there, and checks that its answers agree
// with the other tools': every session it lists (on every page) is one that
// list_recent_sessions returns for the same filters, in the same order; every
// path of files_changed is among the files_changed of the session_recap of
// each session it names; every commit is a command of its session's recap.
func TestE2ESummarizeWorkAgrees(t *testing.T) {
	e := startE2E(t, corpusRootList(t))
	const since = "2000-01-01"
	all := e.call("list_recent_sessions", map[string]any{"limit": 200, "since": since})
	var repos []string
	seenRepo := map[string]bool{}
	for _, s := range list(all["sessions"]) {
		if r := s["repo"].(string); !seenRepo[r] {
			seenRepo[r] = true
			repos = append(repos, r)
		}
	}
	if len(repos) < 5 {
		t.Fatalf("%d repos in the corpus", len(repos))
	}
	recaps := map[string]map[string]any{}
	recap := func(id string) map[string]any {
		if recaps[id] == nil {
			recaps[id] = e.call("session_recap", map[string]any{"session": id})
		}
		return recaps[id]
	}
	checkedFiles, checkedCommits := 0, 0
	for _, repo := range repos {
		listed := e.call("list_recent_sessions", map[string]any{"limit": 200, "since": since, "repo": repo})
		var want []string
		for _, s := range list(listed["sessions"]) {
			want = append(want, s["session_id"].(string))
		}
		var got []string
		args := map[string]any{"repo": repo, "since": since, "limit": 3}
		for page := 0; ; page++ {
			sw := e.call("summarize_work", args)
			if b, _ := json.Marshal(sw); len(b) > 40000 {
				t.Errorf("%s page %d: %d characters", repo, page, len(b))
			}
			if num(sw["sessions_total"]) != num(listed["total_matched"]) {
				t.Errorf("%s: sessions_total %v, list_recent_sessions total_matched %v", repo, sw["sessions_total"], listed["total_matched"])
			}
			for _, s := range list(sw["sessions"]) {
				got = append(got, s["session_id"].(string))
			}
			if page == 0 {
				checkedFiles += checkFilesInRecaps(t, repo, sw, recap)
				checkedCommits += checkCommitsInRecaps(t, repo, sw, recap)
			}
			next, _ := sw["next_cursor"].(string)
			if next == "" {
				break
			}
			args["cursor"] = next
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: summarize_work pages list\n  %v\nlist_recent_sessions\n  %v", repo, got, want)
		}
	}
	t.Logf("%d repos, %d file-session pairs and %d commits checked", len(repos), checkedFiles, checkedCommits)
	if checkedFiles == 0 || checkedCommits == 0 {
		t.Errorf("checked %d files and %d commits: the corpus should have both", checkedFiles, checkedCommits)
	}
	// The default answer over the whole corpus stays within the default budget.
	sw := e.call("summarize_work", map[string]any{"since": since})
	if b, _ := json.Marshal(sw); len(b) > 12000 {
		t.Errorf("summarize_work with the default limit: %d characters, want at most 12,000", len(b))
	}
}

// checkFilesInRecaps checks each listed file against the recaps of its
// sessions: the recap lists it, or lists only its newest files and this one
// is older than all of them.
func checkFilesInRecaps(t *testing.T, repo string, sw map[string]any, recap func(string) map[string]any) int {
	t.Helper()
	n := 0
	for _, f := range list(sw["files_changed"]) {
		p := strings.TrimSuffix(f["path"].(string), "…")
		for _, id := range f["sessions"].([]any) {
			r := recap(id.(string))
			found, oldest := false, ""
			for _, rf := range list(r["files_changed"]) {
				found = found || strings.HasPrefix(rf["path"].(string), p)
				oldest = rf["last"].(string)
			}
			if !found && !(r["files_changed_truncated"] == true && f["last"].(string) <= oldest) {
				t.Errorf("%s: %s changed in %s is not in its session_recap", repo, p, id)
			}
			n++
		}
	}
	return n
}

// checkCommitsInRecaps checks each listed commit against its session's recap:
// one of its commands, or older than the last 20 commands the recap lists.
func checkCommitsInRecaps(t *testing.T, repo string, sw map[string]any, recap func(string) map[string]any) int {
	t.Helper()
	n := 0
	for _, c := range list(sw["commits"]) {
		r := recap(c["session_id"].(string))
		cmds := list(r["commands"])
		found := false
		for _, rc := range cmds {
			found = found || rc["tool_use_id"] == c["tool_use_id"]
		}
		older := len(cmds) > 0 && num(r["command_total"]) != num(len(cmds)) && c["timestamp"].(string) < cmds[0]["timestamp"].(string)
		if !found && !older {
			t.Errorf("%s: commit %v of %v is not among its session_recap's commands", repo, c["tool_use_id"], c["session_id"])
		}
		n++
	}
	return n
}

// list reads a JSON array of objects from an answer.
func list(v any) []map[string]any { return stdiotest.Objects(v) }
