#!/usr/bin/env python3
"""Write the handoff fixture: three Claude Code sessions in repo spacepilot.

The committed .jsonl files are the fixture; this script only rebuilds them
byte for byte (fixed session ids, a seeded RNG for every other id). The usage
numbers are written literally below; EXPECTED.md adds them up by hand and
check.py recomputes them from the JSONL without importing this file.

    python3 testdata/handoff/make.py

Sessions (times UTC; Los Angeles is UTC-8 in late November):
  S1 3c5e8a1f… 2026-11-27 20:05–20:06  (LA 11-27 12:05)   /health endpoint
  S2 7d1f4b2a… 2026-11-28 07:40–08:30  (LA 11-27 23:40 → 11-28 00:30)  rate limiter fix, commit, push, PR, subagent
  S3 b4e6a8c0… 2026-11-28 22:15–22:52  (LA 11-28 14:15)   metrics, failing build, todos, ends on an API error
"""
import json
import os
import random
import shutil
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
CWD = "/home/dev/spacepilot"
FOLDER = os.path.join(HERE, "-home-dev-spacepilot")

S1 = "3c5e8a1f-6b2d-4e7a-9f10-2d4b6c8e0a13"
S2 = "7d1f4b2a-9c3e-4f58-8a6b-0e2c4d6f8a25"
S3 = "b4e6a8c0-2d1f-4a3b-8c5d-6e7f8091a2b3"
AGENT = "a5c0e7f3d92b48a61"

SONNET = "claude-sonnet-4-5-20250929"
OPUS = "claude-opus-4-5-20251101"
SIG = "EpYBCkYICBgCKkDaGFuZG9mZi1maXh0dXJlLXNpZ25hdHVyZS1ub3QtcmVhbA=="

rng = random.Random(20261128)
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def rid(prefix, n):
    return prefix + "".join(rng.choice(ALNUM) for _ in range(n))


def line_uuid():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def usage(inp, cc, cr, out):
    return {"input_tokens": inp, "cache_creation_input_tokens": cc, "cache_read_input_tokens": cr,
            "cache_creation": {"ephemeral_5m_input_tokens": cc, "ephemeral_1h_input_tokens": 0},
            "output_tokens": out, "service_tier": "standard"}


def text(t):
    return {"type": "text", "text": t}


def bash_result(stdout, stderr=""):
    return {"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}


class Transcript:
    """One JSONL file: every line is appended in file order."""

    def __init__(self, path, sid, version, branch, slug, agent=None):
        self.path, self.sid, self.version, self.branch, self.slug = path, sid, version, branch, slug
        self.agent = agent
        self.lines = []
        self.last = None
        self.entrypoint = "cli" if version >= "2.1.79" else None

    def _envelope(self, parent):
        e = {"parentUuid": parent, "isSidechain": self.agent is not None, "userType": "external"}
        if self.entrypoint:
            e["entrypoint"] = self.entrypoint
        e.update({"cwd": CWD, "sessionId": self.sid, "version": self.version, "gitBranch": self.branch})
        if self.agent:
            e["agentId"] = self.agent
        e["slug"] = self.slug
        return e

    def put(self, obj, chain=True):
        self.lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
        if chain and "uuid" in obj:
            self.last = obj["uuid"]
        return obj

    def user(self, ts, content, extra=None, root=False):
        # 2.1.74+ writes uuid/timestamp before the envelope keys on user lines.
        env = self._envelope(None if root else self.last)
        obj = {"parentUuid": env.pop("parentUuid"), "isSidechain": env.pop("isSidechain"),
               "type": "user", "message": {"role": "user", "content": content},
               "uuid": line_uuid(), "timestamp": ts}
        obj.update(env)
        if extra:
            obj.update(extra)
        return self.put(obj)

    def prompt(self, ts, words):
        return self.user(ts, words, extra={"permissionMode": "default"} if not self.agent else None,
                         root=self.agent is not None and self.last is None)

    def result(self, ts, tool_id, content, is_error=None, tur=None, source=None):
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
        if is_error is not None:
            block["is_error"] = is_error
        extra = {}
        if tur is not None and not self.agent:  # 2.1.x subagent files carry no toolUseResult
            extra["toolUseResult"] = tur
        if source:
            extra["sourceToolAssistantUUID"] = source
        return self.user(ts, [block], extra=extra)

    def response(self, model, u, blocks):
        """One API response: one line per content block, sharing message.id and
        requestId. blocks: (timestamp, block, output_tokens so far, stop_reason).
        u: (input, cache_creation, cache_read); the last line has the full output."""
        mid, req = rid("msg_01", 22), rid("req_011C", 20)
        lines = []
        for ts, block, out, stop in blocks:
            env = self._envelope(self.last)
            env["message"] = {"model": model, "id": mid, "type": "message", "role": "assistant",
                              "content": [block], "stop_reason": stop, "stop_sequence": None,
                              "usage": usage(u[0], u[1], u[2], out)}
            env.update({"requestId": req, "type": "assistant", "uuid": line_uuid(), "timestamp": ts})
            lines.append(self.put(env))
        return lines

    def synthetic(self, ts, message):
        env = self._envelope(self.last)
        env["message"] = {"id": line_uuid(), "container": None, "model": "<synthetic>", "role": "assistant",
                          "stop_reason": "stop_sequence", "stop_sequence": "", "type": "message",
                          "usage": {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0,
                                    "cache_read_input_tokens": 0,
                                    "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
                                    "service_tier": None,
                                    "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}},
                          "content": [text(message)], "context_management": None}
        env.update({"type": "assistant", "uuid": line_uuid(), "timestamp": ts,
                    "error": "unknown", "isApiErrorMessage": True})
        return self.put(env)

    def snapshot(self, prompt_line):
        self.put({"type": "file-history-snapshot", "messageId": prompt_line["uuid"],
                  "snapshot": {"messageId": prompt_line["uuid"], "trackedFileBackups": {},
                               "timestamp": prompt_line["timestamp"]},
                  "isSnapshotUpdate": False}, chain=False)

    def progress_bash(self, ts, tool_id, output):
        self.put({**self._envelope(self.last), "type": "progress",
                  "data": {"type": "bash_progress", "output": output, "fullOutput": output,
                           "elapsedTimeSeconds": 3, "totalLines": output.count("\n") + 1},
                  "toolUseID": "bash-progress-0", "parentToolUseID": tool_id,
                  "uuid": line_uuid(), "timestamp": ts}, chain=False)

    def write(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, "w", encoding="utf-8", newline="") as f:
            f.write("".join(l + "\n" for l in self.lines))


def tool(name, inp):
    return {"type": "tool_use", "id": rid("toolu_01", 22), "name": name, "input": inp}


def numbered(src):
    return "".join("%6d\t%s\n" % (i + 1, l) for i, l in enumerate(src.splitlines()))


def read_result(path, src):
    return numbered(src), {"type": "text", "file": {"filePath": path, "content": src, "numLines": src.count("\n"),
                                                    "startLine": 1, "totalLines": src.count("\n")}}


def edit_result(path, old, new, original):
    content = ("The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
               % path) + numbered(new)
    patch = [{"oldStart": 1, "oldLines": old.count("\n") + 1, "newStart": 1, "newLines": new.count("\n") + 1,
              "lines": ["-" + l for l in old.splitlines()] + ["+" + l for l in new.splitlines()]}]
    return content, {"filePath": path, "oldString": old, "newString": new, "originalFile": original,
                     "structuredPatch": patch, "userModified": False, "replaceAll": False}


SERVER_GO = """package api

import (
	"net/http"

	"github.com/dev/spacepilot/api/ratelimit"
)

func NewServer(cfg Config) *http.ServeMux {
	mux := http.NewServeMux()
	limiter := ratelimit.New(cfg.Burst, 0)
	mux.Handle("/v1/", limiter.Wrap(v1Routes()))
	return mux
}
"""


def session1():
    T = Transcript(os.path.join(FOLDER, S1 + ".jsonl"), S1, "2.1.76", "main", "steady-humming-kite")
    p = T.prompt("2026-11-27T20:05:00.000Z", "Add a /health endpoint to the API server that returns 200 and the build version")
    T.snapshot(p)
    path = CWD + "/api/server.go"
    r = tool("Read", {"file_path": path})
    a = T.response(SONNET, (3, 4200, 12000), [
        ("2026-11-27T20:05:04.100Z", text("I'll start by reading the server setup."), 12, None),
        ("2026-11-27T20:05:04.600Z", r, 88, "tool_use")])
    c, tur = read_result(path, SERVER_GO)
    T.result("2026-11-27T20:05:05.200Z", r["id"], c, tur=tur, source=a[-1]["uuid"])

    old = '\tmux.Handle("/v1/", limiter.Wrap(v1Routes()))'
    new = old + '\n\tmux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {\n\t\tw.Write([]byte(buildVersion))\n\t})'
    e = tool("Edit", {"file_path": path, "old_string": old, "new_string": new, "replace_all": False})
    a = T.response(SONNET, (1, 1500, 16200), [("2026-11-27T20:05:12.000Z", e, 412, "tool_use")])
    c, tur = edit_result(path, old, new, SERVER_GO)
    T.result("2026-11-27T20:05:12.900Z", e["id"], c, tur=tur, source=a[-1]["uuid"])

    todos = [{"content": "Add /health handler to api/server.go", "status": "completed", "activeForm": "Adding /health handler"},
             {"content": "Run go build and the API tests", "status": "in_progress", "activeForm": "Running go build and the API tests"},
             {"content": "Document /health in README", "status": "pending", "activeForm": "Documenting /health in README"}]
    td = tool("TodoWrite", {"todos": todos})
    a = T.response(SONNET, (1, 600, 17700), [("2026-11-27T20:05:20.000Z", td, 156, "tool_use")])
    T.result("2026-11-27T20:05:20.500Z", td["id"],
             "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
             tur={"oldTodos": [], "newTodos": todos}, source=a[-1]["uuid"])

    b = tool("Bash", {"command": "go build ./...", "description": "Build all packages"})
    a = T.response(SONNET, (1, 300, 18300), [
        ("2026-11-27T20:06:02.000Z", text("Now building and running the API tests."), 9, None),
        ("2026-11-27T20:06:02.400Z", b, 70, "tool_use")])
    T.result("2026-11-27T20:06:09.000Z", b["id"], "", is_error=False,
             tur={**bash_result(""), "noOutputExpected": True}, source=a[-1]["uuid"])

    t = tool("Bash", {"command": "go test ./api/...", "description": "Run the API tests"})
    a = T.response(SONNET, (1, 120, 18600), [("2026-11-27T20:06:15.000Z", t, 64, "tool_use")])
    T.progress_bash("2026-11-27T20:06:18.000Z", t["id"], "=== RUN   TestHealth")
    out = "ok  \tgithub.com/dev/spacepilot/api\t0.412s"
    T.result("2026-11-27T20:06:24.000Z", t["id"], out, is_error=False, tur=bash_result(out), source=a[-1]["uuid"])

    T.response(SONNET, (1, 200, 18720), [("2026-11-27T20:06:30.000Z", text(
        "Added `GET /health` in api/server.go; it returns 200 with the build version. "
        "`go build ./...` and `go test ./api/...` pass. The README still needs a note about the endpoint."),
        58, "end_turn")])
    T.put({"type": "last-prompt", "lastPrompt": p["message"]["content"], "leafUuid": T.last, "sessionId": S1}, chain=False)
    return [T]


RATELIMIT_GO = """package ratelimit

import "time"

// New returns a limiter holding burst tokens, refilled every interval.
func New(burst int, interval time.Duration) *Limiter {
	return &Limiter{tokens: burst, burst: burst, every: interval}
}
"""

LIMITS_GO = """package api

// DefaultBurst is the number of requests a client may send at once.
const DefaultBurst = 5
"""


def session2():
    T = Transcript(os.path.join(FOLDER, S2 + ".jsonl"), S2, "2.1.78", "fix/ratelimit", "brave-folding-lantern")
    sub = Transcript(os.path.join(FOLDER, S2, "subagents", "agent-%s.jsonl" % AGENT), S2, "2.1.78",
                     "fix/ratelimit", "brave-folding-lantern", agent=AGENT)
    p = T.prompt("2026-11-28T07:40:00.000Z",
                 "The rate limiter tests are failing on CI. Fix them, then commit, push and open a PR.")
    T.snapshot(p)

    t1 = tool("Bash", {"command": "go test ./...", "description": "Run all tests"})
    a = T.response(OPUS, (3, 5200, 12400), [
        ("2026-11-28T07:40:05.000Z", text("Let me reproduce the failure first."), 10, None),
        ("2026-11-28T07:40:05.500Z", t1, 95, "tool_use")])
    T.progress_bash("2026-11-28T07:40:09.000Z", t1["id"], "=== RUN   TestBucketRefill")
    fail = ("--- FAIL: TestBucketRefill (0.00s)\n    ratelimit_test.go:41: tokens after 1s = 0, want 10\nFAIL\n"
            "FAIL\tgithub.com/dev/spacepilot/api\t0.231s\nok  \tgithub.com/dev/spacepilot/internal/store\t0.118s\nFAIL")
    T.result("2026-11-28T07:40:14.000Z", t1["id"], "Exit code 1\n" + fail, is_error=True,
             tur="Error: Exit code 1\n" + fail, source=a[-1]["uuid"])

    rpath = CWD + "/api/ratelimit/ratelimit.go"
    r = tool("Read", {"file_path": rpath})
    a = T.response(OPUS, (1, 900, 17600), [("2026-11-28T07:40:22.000Z", r, 61, "tool_use")])
    c, tur = read_result(rpath, RATELIMIT_GO)
    T.result("2026-11-28T07:40:22.600Z", r["id"], c, tur=tur, source=a[-1]["uuid"])

    spath = CWD + "/api/server.go"
    old, new = "\tlimiter := ratelimit.New(cfg.Burst, 0)", "\tlimiter := ratelimit.New(cfg.Burst, cfg.RefillEvery)"
    e = tool("Edit", {"file_path": spath, "old_string": old, "new_string": new, "replace_all": False})
    a = T.response(OPUS, (1, 1300, 18500), [
        ("2026-11-28T07:52:28.000Z", {"type": "thinking", "thinking": "The server passes a zero refill interval, so the bucket never refills. The limiter itself is fine.", "signature": SIG}, 40, None),
        ("2026-11-28T07:52:30.000Z", e, 530, "tool_use")])
    c, tur = edit_result(spath, old, new, SERVER_GO)
    T.result("2026-11-28T07:52:31.000Z", e["id"], c, tur=tur, source=a[-1]["uuid"])

    t2 = tool("Bash", {"command": "go test ./...", "description": "Run all tests again"})
    a = T.response(OPUS, (1, 400, 19800), [("2026-11-28T08:01:10.000Z", t2, 72, "tool_use")])
    ok = "ok  \tgithub.com/dev/spacepilot/api\t0.219s\nok  \tgithub.com/dev/spacepilot/internal/store\t0.120s"
    T.result("2026-11-28T08:01:19.000Z", t2["id"], ok, is_error=False, tur=bash_result(ok), source=a[-1]["uuid"])

    sub_prompt = ("In /home/dev/spacepilot/api/limits.go, change DefaultBurst from 5 to 10 to match the fixed "
                  "limiter and update its doc comment.")
    ag = tool("Agent", {"description": "Update limit defaults", "prompt": sub_prompt, "subagent_type": "general-purpose"})
    agent_lines = T.response(OPUS, (1, 350, 20200), [
        ("2026-11-28T08:03:00.000Z", text("Tests pass. I'll have a subagent update the limit defaults."), 15, None),
        ("2026-11-28T08:03:00.600Z", ag, 140, "tool_use")])

    # The subagent: one Read, one Edit, a final report.
    lpath = CWD + "/api/limits.go"
    sub.prompt("2026-11-28T08:03:01.000Z", sub_prompt)
    sr = tool("Read", {"file_path": lpath})
    sub.response(SONNET, (3, 3100, 9000), [("2026-11-28T08:03:04.000Z", sr, 55, "tool_use")])
    sub.result("2026-11-28T08:03:04.400Z", sr["id"], numbered(LIMITS_GO))
    sold = "// DefaultBurst is the number of requests a client may send at once.\nconst DefaultBurst = 5"
    snew = ("// DefaultBurst is the number of requests a client may send at once; the bucket\n"
            "// refills one token per RefillEvery.\nconst DefaultBurst = 10")
    se = tool("Edit", {"file_path": lpath, "old_string": sold, "new_string": snew, "replace_all": False})
    sa2 = sub.response(SONNET, (1, 700, 12100), [
        ("2026-11-28T08:03:20.000Z", text("Updating the default and its comment."), 8, None),
        ("2026-11-28T08:03:20.500Z", se, 210, "tool_use")])
    sub.result("2026-11-28T08:03:21.000Z", se["id"], edit_result(lpath, sold, snew, LIMITS_GO)[0])
    report = "Changed DefaultBurst from 5 to 10 in api/limits.go and updated its doc comment."
    sub.response(SONNET, (1, 320, 12800), [("2026-11-28T08:04:08.000Z", text(report), 22, "end_turn")])

    # A progress line in the parent embedding a copy of a subagent line (never counted).
    T.put({**T._envelope(agent_lines[-1]["uuid"]), "type": "progress",
           "data": {"message": {"type": "assistant", "timestamp": sa2[-1]["timestamp"], "message": sa2[-1]["message"],
                                "requestId": sa2[-1]["requestId"], "uuid": sa2[-1]["uuid"]},
                    "normalizedMessages": [], "type": "agent_progress", "prompt": sub_prompt, "agentId": AGENT},
           "toolUseID": "agent_msg_" + ag["id"][6:], "parentToolUseID": ag["id"],
           "uuid": line_uuid(), "timestamp": "2026-11-28T08:03:20.600Z"}, chain=False)

    last_usage = usage(1, 320, 12800, 22)
    T.result("2026-11-28T08:04:12.000Z", ag["id"],
             [text(report), text("agentId: %s (for resuming to continue this agent's work if needed)\n"
                                 "<usage>total_tokens: 13143\ntool_uses: 2\nduration_ms: 71000</usage>" % AGENT)],
             tur={"status": "completed", "prompt": sub_prompt, "agentId": AGENT, "content": [text(report)],
                  "totalDurationMs": 71000, "totalTokens": 13143, "totalToolUseCount": 2, "usage": last_usage,
                  "agentType": "general-purpose"},
             source=agent_lines[-1]["uuid"])

    commit = ("git add api/server.go api/limits.go && git commit -m \"$(cat <<'EOF'\n"
              "Fix rate limiter refill interval\n\n"
              "The server built the limiter with a zero refill interval, so buckets never\n"
              "refilled. Pass cfg.RefillEvery and raise DefaultBurst to 10.\n\n"
              "\U0001F916 Generated with [Claude Code](https://claude.com/claude-code)\n\n"
              "Co-Authored-By: Claude <noreply@anthropic.com>\n"
              "EOF\n)\"")
    cm = tool("Bash", {"command": commit, "description": "Commit the fix"})
    a = T.response(OPUS, (1, 700, 20600), [("2026-11-28T08:10:00.000Z", cm, 230, "tool_use")])
    out = "[fix/ratelimit 4e1a9c2] Fix rate limiter refill interval\n 2 files changed, 4 insertions(+), 3 deletions(-)"
    T.result("2026-11-28T08:10:01.500Z", cm["id"], out, is_error=False, tur=bash_result(out), source=a[-1]["uuid"])

    ps = tool("Bash", {"command": "git push -u origin fix/ratelimit", "description": "Push the branch"})
    a = T.response(OPUS, (1, 260, 21300), [("2026-11-28T08:12:00.000Z", ps, 48, "tool_use")])
    so = "branch 'fix/ratelimit' set up to track 'origin/fix/ratelimit'."
    se_ = ("remote: \nremote: Create a pull request for 'fix/ratelimit' on GitHub by visiting:\n"
           "remote:      https://github.com/dev/spacepilot/pull/new/fix/ratelimit\nremote: \n"
           "To github.com:dev/spacepilot.git\n * [new branch]      fix/ratelimit -> fix/ratelimit")
    T.result("2026-11-28T08:12:03.000Z", ps["id"], se_ + "\n" + so, is_error=False, tur=bash_result(so, se_),
             source=a[-1]["uuid"])

    pr_cmd = ("gh pr create --title \"Fix rate limiter refill interval\" --body \"$(cat <<'EOF'\n"
              "## Summary\n- Pass the configured refill interval to the limiter\n- Raise DefaultBurst to 10\n\n"
              "## Test plan\n- [x] go test ./...\n\n"
              "\U0001F916 Generated with [Claude Code](https://claude.com/claude-code)\nEOF\n)\"")
    pr = tool("Bash", {"command": pr_cmd, "description": "Open the pull request"})
    a = T.response(OPUS, (1, 310, 21560), [("2026-11-28T08:20:00.000Z", pr, 160, "tool_use")])
    url = "https://github.com/dev/spacepilot/pull/42"
    T.result("2026-11-28T08:20:04.000Z", pr["id"], url, is_error=False, tur=bash_result(url), source=a[-1]["uuid"])
    T.put({"type": "pr-link", "prNumber": 42, "prUrl": url, "prRepository": "dev/spacepilot",
           "timestamp": "2026-11-28T08:20:04.500Z", "sessionId": S2}, chain=False)

    T.response(OPUS, (1, 240, 21900), [("2026-11-28T08:30:00.000Z", text(
        "Fixed the refill interval in api/server.go, raised DefaultBurst in api/limits.go (via a subagent), "
        "committed, pushed fix/ratelimit and opened https://github.com/dev/spacepilot/pull/42. `go test ./...` passes."),
        70, "end_turn")])
    T.put({"type": "last-prompt", "lastPrompt": p["message"]["content"], "leafUuid": T.last, "sessionId": S2}, chain=False)

    meta = os.path.join(FOLDER, S2, "subagents", "agent-%s.meta.json" % AGENT)
    os.makedirs(os.path.dirname(meta), exist_ok=True)
    with open(meta, "w", encoding="utf-8", newline="") as f:
        f.write(json.dumps({"agentType": "general-purpose", "description": "Update limit defaults"}))
    return [T, sub]


METRICS_GO = """package api

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
)

var requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "http_requests_total"}, []string{"path"})

// Metrics counts every request by path.
func Metrics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.WithLabelValues(r.URL.Path).Inc()
		next.ServeHTTP(w, r)
	})
}
"""


def session3():
    T = Transcript(os.path.join(FOLDER, S3 + ".jsonl"), S3, "2.1.81", "feat/metrics", "quiet-orbit-fern")
    T.put({"type": "permission-mode", "permissionMode": "default", "sessionId": S3}, chain=False)
    p = T.prompt("2026-11-28T22:15:00.000Z", "Add Prometheus request metrics to the API server")
    T.snapshot(p)
    spath = CWD + "/api/server.go"
    r = tool("Read", {"file_path": spath})
    a = T.response(SONNET, (3, 4600, 12000), [
        ("2026-11-28T22:15:06.000Z", text("I'll look at how handlers are registered."), 11, None),
        ("2026-11-28T22:15:06.400Z", r, 70, "tool_use")])
    c, tur = read_result(spath, SERVER_GO)
    T.result("2026-11-28T22:15:07.000Z", r["id"], c, tur=tur, source=a[-1]["uuid"])

    mpath = CWD + "/api/metrics.go"
    w = tool("Write", {"file_path": mpath, "content": METRICS_GO})
    a = T.response(SONNET, (1, 1700, 16600), [("2026-11-28T22:16:40.000Z", w, 880, "tool_use")])
    T.result("2026-11-28T22:16:41.000Z", w["id"], "File created successfully at: " + mpath,
             tur={"type": "create", "filePath": mpath, "content": METRICS_GO, "structuredPatch": [], "originalFile": None},
             source=a[-1]["uuid"])

    b = tool("Bash", {"command": "go build ./...", "description": "Build all packages"})
    a = T.response(SONNET, (1, 1000, 18300), [("2026-11-28T22:17:00.000Z", b, 52, "tool_use")])
    err = ("# github.com/dev/spacepilot/api\napi/metrics.go:6:2: no required module provides package "
           "github.com/prometheus/client_golang/prometheus; to add it:\n\tgo get github.com/prometheus/client_golang/prometheus")
    T.result("2026-11-28T22:17:06.000Z", b["id"], "Exit code 1\n" + err, is_error=True, tur="Error: Exit code 1\n" + err,
             source=a[-1]["uuid"])

    todos = [{"content": "Add metrics middleware in api/metrics.go", "status": "completed", "activeForm": "Adding metrics middleware"},
             {"content": "Fix the go build failure (missing prometheus module)", "status": "in_progress", "activeForm": "Fixing the go build failure"},
             {"content": "Register /metrics in api/server.go", "status": "pending", "activeForm": "Registering /metrics"},
             {"content": "Add tests for the metrics middleware", "status": "pending", "activeForm": "Adding tests for the metrics middleware"}]
    td = tool("TodoWrite", {"todos": todos})
    a = T.response(SONNET, (1, 420, 19300), [("2026-11-28T22:17:15.000Z", td, 190, "tool_use")])
    T.result("2026-11-28T22:17:15.600Z", td["id"],
             "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
             tur={"oldTodos": [], "newTodos": todos}, source=a[-1]["uuid"])

    T.response(SONNET, (1, 300, 19720), [("2026-11-28T22:17:25.000Z", text(
        "The build fails because the Prometheus client module is not in go.mod yet. Next: "
        "`go get github.com/prometheus/client_golang/prometheus`, then register /metrics in api/server.go."),
        48, "end_turn")])
    T.prompt("2026-11-28T22:52:00.000Z", "go ahead")
    T.synthetic("2026-11-28T22:52:04.000Z",
                "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
    T.put({"type": "last-prompt", "lastPrompt": "go ahead", "leafUuid": T.last, "sessionId": S3}, chain=False)
    return [T]


def main():
    if os.path.isdir(FOLDER):
        shutil.rmtree(FOLDER)
    for t in session1() + session2() + session3():
        t.write()


if __name__ == "__main__":
    main()
