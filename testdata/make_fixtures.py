#!/usr/bin/env python3
"""Regenerate the hand-made fixture log tree under testdata/projects/.

The committed .jsonl files are the fixtures; this script only exists so they can be
rebuilt byte-for-byte (it is deterministic: fixed session ids, a seeded RNG for line
uuids / message ids / tool ids). Every expected figure in EXPECTED.md was computed by
hand from the usage numbers written literally in this file, never by parsing output.

Usage:  python3 testdata/make_fixtures.py      (rewrites testdata/projects/)
"""
import json
import os
import random
import re
import shutil
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "projects")

RNG = random.Random(20261120)
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def new_uuid():
    return str(uuid.UUID(int=RNG.getrandbits(128), version=4))


def rand62(n):
    return "".join(RNG.choice(B62) for _ in range(n))


def msg_id():
    return "msg_01" + rand62(22)


def tool_id():
    return "toolu_01" + rand62(22)


def req_id():
    return "req_011C" + rand62(20)


def encode_cwd(cwd):
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def usage(inp, cc, cr, out, c5=None, c1=None, split=True, extra=None):
    """Usage object as Claude Code writes it. c5/c1 default to all-5m."""
    u = {"input_tokens": inp, "cache_creation_input_tokens": cc, "cache_read_input_tokens": cr}
    if split:
        if c5 is None and c1 is None:
            c5, c1 = cc, 0
        u["cache_creation"] = {"ephemeral_5m_input_tokens": c5, "ephemeral_1h_input_tokens": c1}
    u["output_tokens"] = out
    u["service_tier"] = "standard"
    if extra:
        u.update(extra)
    return u


SIG = "EqQBCkYIBRgCKkBmYWtlLXNpZ25hdHVyZS1mb3ItZml4dHVyZXMtb25seQ=="
LAST = object()  # sentinel: chain to the previous conversational line


class Log:
    """One JSONL file being written."""

    def __init__(self, path, sid, cwd, version, branch="main", sidechain=False,
                 agent_id=None, entrypoint=None, slug=None, no_cwd=False):
        self.path = path
        self.sid = sid
        self.cwd = cwd
        self.version = version
        self.branch = branch
        self.sidechain = sidechain
        self.agent_id = agent_id
        self.entrypoint = entrypoint
        self.slug = slug
        self.no_cwd = no_cwd
        self.lines = []  # strings without '\n'
        self.last_uuid = None
        self.torn = None

    # -- envelope ---------------------------------------------------------
    def env(self, parent, sidechain=None):
        if parent is LAST:
            parent = self.last_uuid
        e = {"parentUuid": parent,
             "isSidechain": self.sidechain if sidechain is None else sidechain,
             "userType": "external"}
        if self.entrypoint:
            e["entrypoint"] = self.entrypoint
        if not self.no_cwd:
            e["cwd"] = self.cwd
        e["sessionId"] = self.sid
        e["version"] = self.version
        e["gitBranch"] = self.branch
        if self.agent_id:
            e["agentId"] = self.agent_id
        if self.slug:
            e["slug"] = self.slug
        return e

    def add(self, obj, chain=True):
        self.lines.append(dumps(obj))
        if chain and obj.get("uuid"):
            self.last_uuid = obj["uuid"]
        return obj

    def raw(self, text):
        self.lines.append(text)

    # -- line kinds ---------------------------------------------------------
    def user(self, ts, content, parent=LAST, sidechain=None, extra=None, uid=None, env_extra=None):
        e = self.env(parent, sidechain)
        if env_extra:
            e.update(env_extra)
        e["type"] = "user"
        e["message"] = {"role": "user", "content": content}
        if extra:
            e.update(extra)
        e["uuid"] = uid or new_uuid()
        e["timestamp"] = ts
        return self.add(e)

    def result(self, ts, tool_use_id, content, is_error=None, tur=None, parent=LAST,
               sidechain=None, source_uuid=None):
        block = {"tool_use_id": tool_use_id, "type": "tool_result", "content": content}
        if is_error is not None:
            block["is_error"] = is_error
        extra = {}
        if tur is not None:
            extra["toolUseResult"] = tur
        if source_uuid:
            extra["sourceToolAssistantUUID"] = source_uuid
        return self.user(ts, [block], parent=parent, sidechain=sidechain, extra=extra)

    def assistant(self, ts, model, mid, block, u, stop=None, rid=LAST, parent=LAST,
                  sidechain=None, extra=None, msg_extra=None, env_extra=None):
        e = self.env(parent, sidechain)
        if env_extra:
            e.update(env_extra)
        m = {"model": model, "id": mid, "type": "message", "role": "assistant",
             "content": [block], "stop_reason": stop, "stop_sequence": None}
        if msg_extra:
            m.update(msg_extra)
        m["usage"] = u
        e["message"] = m
        if rid is not None:
            e["requestId"] = rid
        e["type"] = "assistant"
        e["uuid"] = new_uuid()
        e["timestamp"] = ts
        if extra:
            e.update(extra)
        return self.add(e)

    def response(self, model, parts, base_usage, proxy=False, rid=LAST, sidechain=None,
                 extra=None, msg_extra=None, env_extra=None):
        """One API response written as one line per content block.

        parts: list of (timestamp, block, output_tokens, stop_reason).
        base_usage: callable(output_tokens) -> usage dict for a line.
        proxy: non-final lines get {"input_tokens":0,"output_tokens":0} and no requestId.
        Returns (message_id, [line dicts]).
        """
        mid = msg_id()
        if rid is LAST:
            rid = None if proxy else req_id()
        out = []
        for i, (ts, block, otok, stop) in enumerate(parts):
            final = i == len(parts) - 1
            if proxy and not final:
                u = {"input_tokens": 0, "output_tokens": 0}
            else:
                u = base_usage(otok)
            out.append(self.assistant(ts, model, mid, block, u, stop=stop, rid=rid,
                                      sidechain=sidechain, extra=extra, msg_extra=msg_extra,
                                      env_extra=env_extra))
        return mid, out

    def write(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        data = "".join(l + "\n" for l in self.lines)
        if self.torn is not None:
            data += self.torn  # no trailing newline: a line being written right now
        with open(self.path, "w", encoding="utf-8", newline="") as f:
            f.write(data)


def text(t):
    return {"type": "text", "text": t}


def thinking(t):
    return {"type": "thinking", "thinking": t, "signature": SIG}


def tool_use(tid, name, inp):
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}


def bash_ok(stdout):
    return {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}


def main_log(cwd, sid, version, folder=None, **kw):
    folder = folder or encode_cwd(cwd)
    return Log(os.path.join(ROOT, folder, sid + ".jsonl"), sid, cwd, version, **kw)


SONNET = "claude-sonnet-4-5-20250929"
OPUS45 = "claude-opus-4-5-20251101"
HAIKU = "claude-haiku-4-5-20251001"

# ---------------------------------------------------------------------------
# Planted FAKE secrets (listed verbatim in EXPECTED.md).
FAKE_ANTHROPIC = "sk-ant-api03-" + ("FAKEfake" * 12)[:93] + "AA"
FAKE_GITHUB = "ghp_" + ("FAKEfake" * 5)[:36]
FAKE_AWS = "AKIAFAKEFAKEFAKE1234"
FAKE_PG_URL = "postgres://admin:S3cr3tFakePassw0rd@db:5432/x"
FAKE_API_TOKEN_ASSIGN = "API_TOKEN=Zx9fakeQ8tokenW7value"
FAKE_PEM = ("-----BEGIN RSA PRIVATE KEY-----\n"
            "MIIEowIBAAKCAQEA" + "FAKE" * 12 + "\n"
            + "FAKEfake" * 8 + "\n"
            + ("FAKEfake" * 8)[:60] + "==\n"
            "-----END RSA PRIVATE KEY-----")

SIDS = {
    "split": "dae68d1d-9462-4262-8e64-9f368a38164f",
    "proxy": "93b68747-efaf-44a2-bb0d-3d4ca82016ac",
    "sharedA": "9aafd7b4-3ccd-47c2-a842-66120f849c24",
    "sharedB": "923a7c50-1b0f-46fe-ad58-199fa2dfca46",
    "outcomes": "b86f27bf-78c6-43a8-9320-d1ee97d26b45",
    "live": "6daad52f-20f8-404a-b16f-92d91a4d284e",
    "finished": "5ac9683b-b313-46be-8cef-79c8f0940239",
    "nested": "f9733c8b-747a-4242-90be-4b8631751842",
    "legacy": "442ae068-4c41-46b9-aca2-cb3796e74030",
    "legacyOther": "1c6ce900-f9c0-494c-a825-13ba5f5269b5",
    "inline": "e1305d0f-8d43-4064-93b9-5cb18680f246",
    "cache": "ebe31d4a-d76d-4ad5-80df-56dfb2004fb7",
    "models": "ff44a745-9e3a-4394-961c-8a336a6482f9",
    "above": "49510962-1dba-4100-8d5c-3b87a19d28f2",
    "nocwd": "2c3a2877-032d-47c4-9e34-09b574d3e329",
    "twin1": "a7c31e58-5d2b-4f6e-9c1a-3e8b7d604f21",
    "twin2": "a7c31e58-b40e-4a97-8d35-c1f2e9a07b6d",
    "twofold": "4510a0cc-6b1c-4fce-81ca-00bf87e0f3cb",
    "notprompts": "ef20c899-eb9a-4341-aa3f-3b72e6bcaa83",
    "titles1": "45aa96c3-96eb-495c-b706-e5c9a352a604",
    "titles2": "d90d2c62-389b-4b90-97fa-36c0ca75219f",
    "costAgree": "cd7186a3-a1fd-433b-a217-978247bfe863",
    "costDiffer": "afc10e89-9d9d-49f9-9aec-e759ea1d8849",
    "malformed": "12f06f21-b807-4b6c-8166-bb5e210f4b5f",
    "midnight": "7e0c78e0-857c-4cb9-b505-84bae6004906",
    "spill": "2d5fd24a-6e26-4039-80e5-cfac5f4e2d2d",
}
SPILL_TOOL_ID = "toolu_01VqZ8nR3spiLLxK4mWd7Tc2"

LOGS = []


def reg(log):
    LOGS.append(log)
    return log


# ---------------------------------------------------------------------------
def case01_split_usage():
    L = reg(main_log("/home/dev/split-usage", SIDS["split"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-20T09:00:00.000Z", "Add a retry helper to the HTTP client and run the tests")
    t = tool_id()
    _, lines = L.response(SONNET, [
        ("2026-11-20T09:00:03.100Z", thinking("The client lives in internal/http. A retry helper with backoff, then run go test."), 12, None),
        ("2026-11-20T09:00:03.600Z", text("I'll add a retry helper with exponential backoff, then run the tests."), 40, None),
        ("2026-11-20T09:00:04.200Z", tool_use(t, "Bash", {"command": "go test ./internal/http/...", "description": "Run the HTTP client tests"}), 187, "tool_use"),
    ], lambda o: usage(3, 2000, 10000, o))
    L.result("2026-11-20T09:00:06.000Z", t, "ok  \texample.com/split-usage/internal/http\t0.412s", is_error=False,
             tur=bash_ok("ok  \texample.com/split-usage/internal/http\t0.412s"), source_uuid=lines[-1]["uuid"])
    L.response(SONNET, [("2026-11-20T09:00:09.000Z", text("Added `Retry` in internal/http/retry.go; all tests pass."), 95, "end_turn")],
               lambda o: usage(1, 300, 12000, o))
    # a stray non-transcript file that must be ignored
    mem = os.path.join(ROOT, encode_cwd("/home/dev/split-usage"), "memory", "MEMORY.md")
    os.makedirs(os.path.dirname(mem), exist_ok=True)
    with open(mem, "w") as f:
        f.write("# Memory\n\n- The HTTP client lives in internal/http.\n")


def case02_proxy():
    L = reg(main_log("/home/dev/proxy-gateway", SIDS["proxy"], "2.1.63", branch="HEAD"))
    L.user("2026-11-20T14:00:00.000Z", "Read the README and tell me how the gateway is configured")
    t = tool_id()
    real = lambda o: {"input_tokens": 6, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 20000,
                      "output_tokens": o, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
                      "service_tier": "standard",
                      "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 1500},
                      "inference_geo": "", "iterations": [], "speed": "standard"}
    _, lines = L.response("claude-opus-4.6-1m", [
        ("2026-11-20T14:00:03.000Z", thinking("Read the README first."), 0, None),
        ("2026-11-20T14:00:03.400Z", text("Let me read the README."), 0, None),
        ("2026-11-20T14:00:04.000Z", tool_use(t, "Read", {"file_path": "/home/dev/proxy-gateway/README.md"}), 310, "tool_use"),
    ], real, proxy=True)
    L.result("2026-11-20T14:00:04.100Z", t, "     1\t# proxy-gateway\n     2\t\n     3\tConfigured through gateway.yaml (listen, upstreams, retries).",
             tur={"type": "text", "file": {"filePath": "/home/dev/proxy-gateway/README.md",
                                          "content": "# proxy-gateway\n\nConfigured through gateway.yaml (listen, upstreams, retries).",
                                          "numLines": 3, "startLine": 1, "totalLines": 3}},
             source_uuid=lines[-1]["uuid"])
    real2 = lambda o: {"input_tokens": 2, "cache_creation_input_tokens": 400, "cache_read_input_tokens": 21500,
                       "output_tokens": o, "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
                       "service_tier": "standard",
                       "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 400},
                       "inference_geo": "", "iterations": [], "speed": "standard"}
    L.response("claude-opus-4.6-1m", [("2026-11-20T14:00:08.000Z", text("The gateway reads gateway.yaml: listen address, upstream list and retry policy."), 150, "end_turn")],
               real2, proxy=True)


def case03_shared_msg():
    cwd = "/home/dev/shared-msg"
    A = reg(main_log(cwd, SIDS["sharedA"], "2.1.90", entrypoint="cli"))
    A.user("2026-11-21T10:00:00.000Z", "Summarise CHANGELOG.md for the 3.0 release")
    _, m1 = A.response(HAIKU, [("2026-11-21T10:00:05.000Z", text("3.0 adds streaming uploads, drops Node 16 and renames the config loader."), 200, "end_turn")],
                       lambda o: usage(10, 1000, 5000, o))
    A.user("2026-11-21T10:01:00.000Z", "Now list only the breaking changes")
    _, m2 = A.response(HAIKU, [("2026-11-21T10:01:06.000Z", text("Breaking: Node 16 dropped; loadConfig renamed to readConfig; default timeout now 30s."), 300, "end_turn")],
                       lambda o: usage(8, 200, 6000, o))
    # Session B: a resumed/forked copy. Replays A's two assistant lines verbatim
    # (same uuid, same message.id, same timestamps), then continues on its own.
    B = reg(main_log(cwd, SIDS["sharedB"], "2.1.90", entrypoint="cli"))
    for line in (m1[0], m2[0]):
        c = json.loads(dumps(line))
        c["sessionId"] = SIDS["sharedB"]
        c["forkedFrom"] = {"sessionId": SIDS["sharedA"], "messageUuid": line["uuid"]}
        B.add(c)
    B.user("2026-11-21T14:00:00.000Z", "Continue: draft the 3.0 release notes from that list")
    B.response(HAIKU, [("2026-11-21T14:00:07.000Z", text("Release notes draft: ## 3.0\n- Breaking: Node 16 support removed ..."), 250, "end_turn")],
               lambda o: usage(12, 500, 7000, o))


def case04_outcomes():
    cwd = "/home/dev/outcomes"
    L = reg(main_log(cwd, SIDS["outcomes"], "2.1.72", slug="brisk-wandering-otter"))
    L.user("2026-11-21T16:00:00.000Z", "Build the project and fix the failing tests")
    t1, t2, t3, t4, t5, t6, t7 = (tool_id() for _ in range(7))
    _, a1 = L.response(SONNET, [
        ("2026-11-21T16:00:03.000Z", text("Building first."), 20, None),
        ("2026-11-21T16:00:03.400Z", tool_use(t1, "Bash", {"command": "go build ./... && go vet ./...", "description": "Build and vet"}), 150, "tool_use"),
    ], lambda o: usage(3, 1000, 8000, o))
    # 15 bash_progress lines between the call and its result (result is 16 lines later)
    for i in range(15):
        sec = 5 + 2 * i
        L.add({"parentUuid": a1[-1]["uuid"], "isSidechain": False, "userType": "external", "cwd": cwd,
               "sessionId": L.sid, "version": L.version, "gitBranch": "main", "slug": L.slug,
               "type": "progress",
               "data": {"type": "bash_progress", "output": "compiling package %d/15" % (i + 1),
                        "fullOutput": "compiling package %d/15" % (i + 1), "elapsedTimeSeconds": sec - 3,
                        "totalLines": i + 1},
               "toolUseID": "bash-progress-%d" % i, "parentToolUseID": t1,
               "uuid": new_uuid(), "timestamp": "2026-11-21T16:00:%02d.000Z" % sec}, chain=False)
    L.result("2026-11-21T16:00:34.000Z", t1, "", is_error=False, tur=bash_ok(""), source_uuid=a1[-1]["uuid"])
    _, a2 = L.response(SONNET, [("2026-11-21T16:00:37.000Z", tool_use(t2, "Read", {"file_path": "/home/dev/outcomes/internal/config/config.go"}), 60, "tool_use")],
                       lambda o: usage(1, 100, 9000, o))
    L.result("2026-11-21T16:00:37.100Z", t2, "     1\tpackage config\n     2\t\n     3\tconst DefaultTimeout = 10",
             tur={"type": "text", "file": {"filePath": "/home/dev/outcomes/internal/config/config.go",
                                          "content": "package config\n\nconst DefaultTimeout = 10", "numLines": 3,
                                          "startLine": 1, "totalLines": 3}}, source_uuid=a2[-1]["uuid"])
    cmd3 = "psql %s -c 'select 1' && echo %s | ./bin/check-aws-id" % (FAKE_PG_URL, FAKE_AWS)
    _, a3 = L.response(SONNET, [("2026-11-21T16:00:41.000Z", tool_use(t3, "Bash", {"command": cmd3, "description": "Check the test database"}), 80, "tool_use")],
                       lambda o: usage(1, 100, 9100, o))
    err3 = "Exit code 1\npsql: error: connection to server at \"db\" (172.18.0.2), port 5432 failed: FATAL:  database \"x\" does not exist"
    L.result("2026-11-21T16:00:43.500Z", t3, err3, is_error=True, tur="Error: " + err3, source_uuid=a3[-1]["uuid"])
    _, a4 = L.response(SONNET, [("2026-11-21T16:00:50.000Z", tool_use(t4, "Edit", {"file_path": "/home/dev/outcomes/internal/config/config.go",
                                                                                     "old_string": "const DefaultTimeout = 10", "new_string": "const DefaultTimeout = 30"}), 120, "tool_use")],
                       lambda o: usage(1, 200, 9200, o))
    L.result("2026-11-21T16:01:20.000Z", t4,
             "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
             is_error=True, tur="User rejected tool use", source_uuid=a4[-1]["uuid"])
    L.user("2026-11-21T16:01:20.010Z", [text("[Request interrupted by user for tool use]")])
    L.user("2026-11-21T16:02:00.000Z", "Don't edit config.go. Write the findings to NOTES.md instead.")
    _, a5 = L.response(SONNET, [("2026-11-21T16:02:05.000Z", tool_use(t5, "Write", {"file_path": "/home/dev/outcomes/NOTES.md",
                                                                                      "content": "# Findings\n\n- test database x is missing\n"}), 140, "tool_use")],
                       lambda o: usage(2, 300, 9400, o))
    L.result("2026-11-21T16:02:30.000Z", t5,
             "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
             is_error=True, tur="Error: The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
             source_uuid=a5[-1]["uuid"])
    L.user("2026-11-21T16:03:00.000Z", "ok, deploy to staging then")
    _, a6 = L.response(SONNET, [("2026-11-21T16:03:04.000Z", tool_use(t6, "Bash", {"command": "./scripts/deploy.sh staging", "description": "Deploy to staging", "timeout": 600000}), 70, "tool_use")],
                       lambda o: usage(1, 100, 9700, o))
    L.result("2026-11-21T16:05:00.000Z", t6, "Exit code 137\n[Request interrupted by user for tool use]", is_error=True,
             tur="Error: Exit code 137\n[Request interrupted by user for tool use]", source_uuid=a6[-1]["uuid"])
    L.user("2026-11-21T16:05:00.010Z", [text("[Request interrupted by user for tool use]")])
    L.user("2026-11-21T16:06:00.000Z", "Skip the deploy. Find the remaining TODOs.")
    L.response(SONNET, [("2026-11-21T16:06:04.000Z", tool_use(t7, "Grep", {"pattern": "TODO", "path": "/home/dev/outcomes", "output_mode": "content"}), 50, "tool_use")],
               lambda o: usage(1, 100, 9800, o))
    # no result for t7: the log stops here (pending when not live)


def case05_live_torn():
    cwd = "/home/dev/live-torn"
    L = reg(main_log(cwd, SIDS["live"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-22T09:00:00.000Z", "Check the repo state and open the config")
    t1, t2 = tool_id(), tool_id()
    _, a1 = L.response(SONNET, [
        ("2026-11-22T09:00:03.000Z", text("Checking git status first."), 25, None),
        ("2026-11-22T09:00:03.500Z", tool_use(t1, "Bash", {"command": "git status --short", "description": "Show working tree status"}), 90, "tool_use"),
    ], lambda o: usage(3, 500, 4000, o))
    L.result("2026-11-22T09:00:03.700Z", t1, " M config.yaml", is_error=False, tur=bash_ok(" M config.yaml"), source_uuid=a1[-1]["uuid"])
    _, a2 = L.response(SONNET, [("2026-11-22T09:00:06.000Z", tool_use(t2, "Read", {"file_path": "/home/dev/live-torn/config.yaml"}), 40, "tool_use")],
                       lambda o: usage(1, 48, 4600, o))
    # The tool_result line for t2 is being written right now: torn, no newline.
    full = dumps({"parentUuid": a2[-1]["uuid"], "isSidechain": False, "userType": "external", "entrypoint": "cli",
                  "cwd": cwd, "sessionId": L.sid, "version": L.version, "gitBranch": "main", "type": "user",
                  "message": {"role": "user", "content": [{"tool_use_id": t2, "type": "tool_result",
                                                           "content": "     1\tlisten: :8080\n     2\tlog_level: debug"}]},
                  "uuid": new_uuid(), "timestamp": "2026-11-22T09:00:06.100Z"})
    L.torn = full[:full.index("listen:") + 7]


def case06_finished_torn():
    cwd = "/home/dev/finished-torn"
    L = reg(main_log(cwd, SIDS["finished"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-22T11:00:00.000Z", "What does the Makefile's release target do?")
    L.response(SONNET, [("2026-11-22T11:00:04.000Z", text("`make release` tags the version, builds the binaries and uploads them."), 75, "end_turn")],
               lambda o: usage(2, 400, 3000, o))
    full = dumps({"parentUuid": L.last_uuid, "isSidechain": False, "userType": "external", "entrypoint": "cli",
                  "cwd": cwd, "sessionId": L.sid, "version": L.version, "gitBranch": "main", "type": "user",
                  "message": {"role": "user", "content": "also update the release notes template"},
                  "uuid": new_uuid(), "timestamp": "2026-11-22T11:02:00.000Z"})
    L.torn = full[:full.index("also upda") + 9]


def case07a_nested():
    cwd = "/home/dev/sidechain-nested"
    sid = SIDS["nested"]
    folder = os.path.join(ROOT, encode_cwd(cwd))
    ver, slug = "2.1.72", "quiet-sorting-heron"
    P = reg(main_log(cwd, sid, ver, slug=slug))
    agent = "a1b2c3d4e5f6a7b8c"
    S = reg(Log(os.path.join(folder, sid, "subagents", "agent-%s.jsonl" % agent), sid, cwd, ver,
                sidechain=True, agent_id=agent, slug=slug))
    C = reg(Log(os.path.join(folder, sid, "subagents", "agent-acompact-1a2b3c.jsonl"), sid, cwd, ver,
                sidechain=True, agent_id="acompact-1a2b3c", slug=slug))
    os.makedirs(os.path.join(folder, sid, "subagents"), exist_ok=True)
    with open(os.path.join(folder, sid, "subagents", "agent-%s.meta.json" % agent), "w") as f:
        f.write(dumps({"agentType": "Explore", "description": "Find rate limiter config"}))

    prompt = "Find where the rate limiter is configured"
    sub_prompt = "Find where the rate limiter is configured in this repo. Report file paths and the constructor."
    P.user("2026-11-22T15:00:00.000Z", prompt)
    ta = tool_id()
    _, n1 = P.response(OPUS45, [
        ("2026-11-22T15:00:04.210Z", text("I'll send an Explore agent to find it."), 30, None),
        ("2026-11-22T15:00:05.020Z", tool_use(ta, "Agent", {"description": "Find rate limiter config", "prompt": sub_prompt, "subagent_type": "Explore"}), 210, "tool_use"),
    ], lambda o: usage(4, 3000, 12000, o))
    agent_tool_line = n1[-1]

    # subagent file
    S.user("2026-11-22T15:00:05.090Z", sub_prompt, parent=None)
    sub_prompt_line = S.lines[-1]
    g, r = tool_id(), tool_id()
    _, sa1 = S.response(HAIKU, [("2026-11-22T15:00:07.400Z", tool_use(g, "Grep", {"pattern": "NewLimiter", "path": "/home/dev/sidechain-nested", "output_mode": "files_with_matches"}), 90, "tool_use")],
                        lambda o: usage(5, 6000, 0, o))
    S.result("2026-11-22T15:00:07.520Z", g, "Found 2 files\n/home/dev/sidechain-nested/internal/limit/config.go\n/home/dev/sidechain-nested/cmd/api/main.go")
    _, sa2 = S.response(HAIKU, [("2026-11-22T15:00:09.800Z", tool_use(r, "Read", {"file_path": "/home/dev/sidechain-nested/internal/limit/config.go"}), 70, "tool_use")],
                        lambda o: usage(1, 400, 6000, o))
    S.result("2026-11-22T15:00:09.870Z", r, "    14\tfunc NewLimiter(rate int, burst int) *Limiter {")
    S.response(HAIKU, [("2026-11-22T15:00:14.300Z", text("The rate limiter is built by NewLimiter in internal/limit/config.go (line 14) and wired in cmd/api/main.go."), 320, "end_turn")],
               lambda o: usage(1, 600, 6400, o))

    # progress lines in the parent embedding full copies of subagent lines (never counted)
    def progress(ts, inner):
        P.add({"parentUuid": agent_tool_line["uuid"], "isSidechain": False, "userType": "external", "cwd": cwd,
               "sessionId": sid, "version": ver, "gitBranch": "main", "slug": slug, "type": "progress",
               "data": {"message": inner, "normalizedMessages": [], "type": "agent_progress", "prompt": sub_prompt, "agentId": agent},
               "toolUseID": "agent_msg_" + ta[6:], "parentToolUseID": ta,
               "uuid": new_uuid(), "timestamp": ts}, chain=False)

    sp = json.loads(sub_prompt_line)
    progress("2026-11-22T15:00:05.100Z", {"type": "user", "message": sp["message"], "uuid": sp["uuid"], "timestamp": sp["timestamp"]})
    for line, ts in ((sa1[0], "2026-11-22T15:00:07.410Z"), (sa2[0], "2026-11-22T15:00:09.810Z")):
        progress(ts, {"type": "assistant", "timestamp": line["timestamp"], "message": line["message"],
                      "requestId": line["requestId"], "uuid": line["uuid"]})

    result_text = "The rate limiter is built by NewLimiter in internal/limit/config.go (line 14) and wired in cmd/api/main.go."
    P.result("2026-11-22T15:00:14.500Z", ta,
             [text(result_text),
              text("agentId: %s (for resuming to continue this agent's work if needed)\n<usage>total_tokens: 99999\ntool_uses: 2\nduration_ms: 9410</usage>" % agent)],
             tur={"status": "completed", "prompt": sub_prompt, "agentId": agent, "content": [text(result_text)],
                  "totalDurationMs": 9410, "totalTokens": 99999, "totalToolUseCount": 2,
                  "usage": usage(50000, 40000, 9000, 999), "agentType": "Explore"},
             parent=agent_tool_line["uuid"], source_uuid=agent_tool_line["uuid"])
    _, n2 = P.response(OPUS45, [("2026-11-22T15:00:18.000Z", text("It's configured in internal/limit/config.go via NewLimiter(rate, burst); cmd/api/main.go wires it."), 180, "end_turn")],
                       lambda o: usage(2, 800, 15000, o))

    # special worker: compaction summariser (real spend, a sidechain)
    C.user("2026-11-22T15:04:30.000Z",
           "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.",
           parent=n2[-1]["uuid"])
    C.response(OPUS45, [
        ("2026-11-22T15:04:41.200Z", thinking("Summarise: user asked where the rate limiter is configured; answer found."), 100, None),
        ("2026-11-22T15:04:58.900Z", text("<summary>1. Primary request: locate the rate limiter configuration. 2. Found: internal/limit/config.go NewLimiter; wired in cmd/api/main.go.</summary>"), 650, "end_turn"),
    ], lambda o: usage(3, 2000, 16000, o))

    boundary = P.add({"parentUuid": None, "logicalParentUuid": n2[-1]["uuid"], "isSidechain": False, "userType": "external",
                      "cwd": cwd, "sessionId": sid, "version": ver, "gitBranch": "main", "slug": slug, "type": "system",
                      "subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False,
                      "timestamp": "2026-11-22T15:05:00.100Z", "uuid": new_uuid(), "level": "info",
                      "compactMetadata": {"trigger": "auto", "preTokens": 171204}})
    P.user("2026-11-22T15:05:00.100Z",
           "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n1. Primary request: locate the rate limiter configuration.",
           parent=boundary["uuid"], extra={"isVisibleInTranscriptOnly": True, "isCompactSummary": True})


def case07b_legacy():
    cwd = "/home/dev/sidechain-legacy"
    sid = SIDS["legacy"]
    folder = os.path.join(ROOT, encode_cwd(cwd))
    ver, slug = "2.0.58", "gentle-roaming-finch"
    P = reg(main_log(cwd, sid, ver, branch="", slug=slug))
    A = reg(Log(os.path.join(folder, "agent-1a2b3c4d.jsonl"), sid, cwd, ver, branch="", sidechain=True,
                agent_id="1a2b3c4d", slug=slug))
    W = reg(Log(os.path.join(folder, "agent-9f8e7d6c.jsonl"), sid, cwd, ver, branch="", sidechain=True,
                agent_id="9f8e7d6c"))
    # warm-up agent: one assistant line, parentUuid null, referenced nowhere
    W.response(SONNET, [("2026-11-23T08:59:58.000Z", text("I'm ready to help you explore and work with this codebase."), 12, "end_turn")],
               lambda o: usage(2800, 0, 0, o), env_extra=None)

    sub_prompt = "List the entry points of the auth module (internal/auth)."
    P.user("2026-11-23T09:00:00.000Z", "Explore the auth module and list its entry points")
    tt = tool_id()
    _, lm1 = P.response(SONNET, [
        ("2026-11-23T09:00:03.500Z", text("I'll use an Explore agent for this."), 8, None),
        ("2026-11-23T09:00:04.100Z", tool_use(tt, "Task", {"description": "Explore auth module", "prompt": sub_prompt, "subagent_type": "Explore"}), 140, "tool_use"),
    ], lambda o: usage(3, 2500, 5000, o))
    # legacy subagent: first line is already an assistant line (prompt line not written)
    tg = tool_id()
    _, la1 = A.response(HAIKU, [
        ("2026-11-23T09:00:05.200Z", text("Searching the auth package."), 5, None),
        ("2026-11-23T09:00:05.600Z", tool_use(tg, "Glob", {"pattern": "internal/auth/**/*.go"}), 85, "tool_use"),
    ], lambda o: usage(2, 4000, 0, o))
    A.result("2026-11-23T09:00:05.700Z", tg,
             "/home/dev/sidechain-legacy/internal/auth/login.go\n/home/dev/sidechain-legacy/internal/auth/session.go\n/home/dev/sidechain-legacy/internal/auth/middleware.go",
             tur={"filenames": ["/home/dev/sidechain-legacy/internal/auth/login.go", "/home/dev/sidechain-legacy/internal/auth/session.go",
                                "/home/dev/sidechain-legacy/internal/auth/middleware.go"], "durationMs": 12, "numFiles": 3, "truncated": False})
    la2_text = "Entry points: Login (login.go), NewSession (session.go), RequireAuth middleware (middleware.go)."
    A.response(HAIKU, [("2026-11-23T09:00:09.900Z", text(la2_text), 220, "end_turn")], lambda o: usage(1, 300, 4000, o))
    P.result("2026-11-23T09:00:10.300Z", tt, [text(la2_text)],
             tur={"status": "completed", "prompt": sub_prompt, "agentId": "1a2b3c4d", "content": [text(la2_text)],
                  "totalDurationMs": 6100, "totalTokens": 54321, "totalToolUseCount": 1,
                  "usage": usage(1, 300, 4000, 220)})
    P.response(SONNET, [("2026-11-23T09:00:14.000Z", text("The auth module has three entry points: Login, NewSession and the RequireAuth middleware."), 260, "end_turn")],
               lambda o: usage(2, 600, 7500, o))

    # another session in the same legacy folder, without agents (agents must not attach here)
    O = reg(main_log(cwd, SIDS["legacyOther"], ver, branch="", slug="plain-sitting-wren"))
    O.user("2026-11-23T11:00:00.000Z", "What does `make lint` run?")
    O.response(SONNET, [("2026-11-23T11:00:04.000Z", text("`make lint` runs golangci-lint with the repo's .golangci.yml."), 60, "end_turn")],
               lambda o: usage(5, 200, 5000, o))


def case07c_inline():
    cwd = "/home/dev/sidechain-inline"
    L = reg(main_log(cwd, SIDS["inline"], "1.0.51"))
    nosplit = lambda i, cc, cr: (lambda o: usage(i, cc, cr, o, split=False))
    sub_prompt = "Audit the logging calls in cmd/ and report any that print credentials"
    L.user("2026-11-23T13:00:00.000Z", "Audit the logging calls in cmd/")
    tt = tool_id()
    _, i1 = L.response(SONNET, [("2026-11-23T13:00:03.000Z", tool_use(tt, "Task", {"description": "Audit logging", "prompt": sub_prompt}), 120, "tool_use")],
                       nosplit(4, 1600, 3000))
    main_tip = i1[-1]["uuid"]
    # inline sidechain lines (1.0.x): isSidechain true inside the main file
    L.user("2026-11-23T13:00:03.500Z", sub_prompt, parent=None, sidechain=True)
    tg = tool_id()
    L.response(SONNET, [("2026-11-23T13:00:05.000Z", tool_use(tg, "Grep", {"pattern": "log\\.Print", "path": "/home/dev/sidechain-inline/cmd", "output_mode": "content"}), 60, "tool_use")],
               nosplit(3, 2400, 0), sidechain=True)
    L.result("2026-11-23T13:00:05.200Z", tg, "cmd/server/main.go:31:\tlog.Printf(\"listening on %s\", addr)", sidechain=True)
    sub_answer = "One logging call in cmd/server/main.go:31; it prints only the listen address. Nothing sensitive is logged."
    L.response(SONNET, [("2026-11-23T13:00:09.000Z", text(sub_answer), 240, "end_turn")], nosplit(1, 200, 2400), sidechain=True)
    L.result("2026-11-23T13:00:09.400Z", tt, [text(sub_answer)], parent=main_tip, sidechain=False,
             tur={"content": [text(sub_answer)], "totalDurationMs": 6400, "totalTokens": 2841, "totalToolUseCount": 1,
                  "usage": usage(1, 200, 2400, 240, split=False), "wasInterrupted": False})
    L.response(SONNET, [("2026-11-23T13:00:12.000Z", text("The audit found one logging call (cmd/server/main.go:31) and it is safe."), 150, "end_turn")],
               nosplit(2, 400, 4600), sidechain=False)


def case08_cache_split():
    L = reg(main_log("/home/dev/cache-split", SIDS["cache"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-23T16:00:00.000Z", "Explain the cache eviction policy in cache/lru.go")
    L.response(SONNET, [("2026-11-23T16:00:05.000Z", text("It's a plain LRU with a size cap; eviction happens on Put when over capacity."), 100, "end_turn")],
               lambda o: usage(3, 10000, 0, o, c5=4000, c1=6000))
    L.user("2026-11-23T16:01:00.000Z", "Run its tests")
    t = tool_id()
    _, a = L.response(SONNET, [("2026-11-23T16:01:04.000Z", tool_use(t, "Bash", {"command": "go test ./cache/...", "description": "Run cache tests"}), 200, "tool_use")],
                      lambda o: usage(2, 2000, 10000, o, c5=0, c1=2000))
    L.result("2026-11-23T16:01:09.000Z", t, "ok  \texample.com/cache-split/cache\t0.087s", is_error=False,
             tur=bash_ok("ok  \texample.com/cache-split/cache\t0.087s"), source_uuid=a[-1]["uuid"])
    # no cache_creation split object: all 800 count as 5-minute writes
    L.response(SONNET, [("2026-11-23T16:01:12.000Z", text("All cache tests pass."), 50, "end_turn")],
               lambda o: usage(1, 800, 12000, o, split=False))


def case09_models():
    L = reg(main_log("/home/dev/models-mix", SIDS["models"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-24T09:00:00.000Z", "Which HTTP router does this service use?")
    L.response("claude-sonnet-4-5-20250929", [("2026-11-24T09:00:04.000Z", text("It uses chi (go-chi/chi/v5)."), 100, "end_turn")],
               lambda o: usage(10, 1000, 2000, o))
    L.user("2026-11-24T09:01:00.000Z", "Plan a migration to net/http's ServeMux")
    L.response("claude-opus-4-5", [("2026-11-24T09:01:05.000Z", text("Plan: 1) map routes 2) replace middleware chain 3) port URL params."), 200, "end_turn")],
               lambda o: usage(20, 400, 3000, o))
    L.user("2026-11-24T09:02:00.000Z", "Go ahead with step 1")
    L.assistant("2026-11-24T09:02:01.000Z", "<synthetic>", new_uuid(),
                text("API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"),
                {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                 "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": None,
                 "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}},
                stop="stop_sequence", rid=None, extra={"error": "unknown", "isApiErrorMessage": True})
    L.user("2026-11-24T09:03:00.000Z", "Try again with the other model")
    L.response("mystery-model-9", [("2026-11-24T09:03:06.000Z", text("Step 1 done: routes mapped in router_map.md."), 300, "end_turn")],
               lambda o: usage(30, 600, 1000, o))


def case10_above_200k():
    L = reg(main_log("/home/dev/above-200k", SIDS["above"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-24T11:00:00.000Z", "Review the whole generated schema file for inconsistencies")
    L.response(SONNET, [("2026-11-24T11:00:20.000Z", text("Found 4 inconsistent field names in schema.gen.go."), 1000, "end_turn")],
               lambda o: usage(1000, 0, 199500, o))
    L.user("2026-11-24T11:05:00.000Z", "List them")
    L.response(SONNET, [("2026-11-24T11:05:15.000Z", text("userID vs UserId, created_at vs CreatedAt, ..."), 500, "end_turn")],
               lambda o: usage(1999, 8000, 190000, o))
    L.user("2026-11-24T11:10:00.000Z", "Fix the first one")
    L.response(SONNET, [("2026-11-24T11:10:25.000Z", text("Renamed UserId to userID in schema.gen.go."), 200, "end_turn")],
               lambda o: usage(6, 10000, 190000, o))


def case11_no_cwd():
    L = reg(Log(os.path.join(ROOT, "-home-dev-nocwdrepo", SIDS["nocwd"] + ".jsonl"), SIDS["nocwd"],
                "/home/dev/nocwdrepo", "2.1.90", entrypoint="cli", no_cwd=True))
    L.user("2026-11-27T09:00:00.000Z", "Why is the build cache so large?")
    L.response(SONNET, [("2026-11-27T09:00:05.000Z", text("Old test binaries accumulate in the cache; `go clean -testcache` trims them."), 80, "end_turn")],
               lambda o: usage(4, 400, 2000, o))


def case12_prefix_twins():
    cwd = "/home/dev/prefix-twins"
    A = reg(main_log(cwd, SIDS["twin1"], "2.1.90", entrypoint="cli"))
    A.user("2026-11-27T10:00:00.000Z", "Rename the twin package to pair")
    A.response(HAIKU, [("2026-11-27T10:00:04.000Z", text("Renamed package twin to pair in 3 files."), 50, "end_turn")],
               lambda o: usage(5, 400, 1000, o))
    B = reg(main_log(cwd, SIDS["twin2"], "2.1.90", entrypoint="cli"))
    B.user("2026-11-27T11:00:00.000Z", "Update the README for the pair package")
    B.response(HAIKU, [("2026-11-27T11:00:03.000Z", text("README now documents package pair."), 70, "end_turn")],
               lambda o: usage(6, 800, 2000, o))


def case13_two_folders():
    sid = SIDS["twofold"]
    W = reg(main_log("/mnt/c/Users/dev/twin", sid, "2.1.90", entrypoint="cli"))
    W.user("2026-11-24T06:00:00.000Z", "From WSL: why does make fail on line endings?")
    W.response(SONNET, [("2026-11-24T06:00:05.000Z", text("The scripts have CRLF endings; set core.autocrlf=input and re-checkout."), 90, "end_turn")],
               lambda o: usage(3, 1200, 4000, o))
    C = reg(main_log("C:\\Users\\dev\\twin", sid, "2.1.90", entrypoint="cli"))
    C.user("2026-11-24T07:00:00.000Z", "From Windows: list the scripts folder")
    t = tool_id()
    _, a = C.response(SONNET, [
        ("2026-11-24T07:00:04.000Z", text("Listing it."), 30, None),
        ("2026-11-24T07:00:04.500Z", tool_use(t, "PowerShell", {"command": "Get-ChildItem C:\\Users\\dev\\twin\\scripts", "description": "List scripts"}), 110, "tool_use"),
    ], lambda o: usage(4, 800, 5000, o))
    out = "build.ps1\r\nrelease.ps1"
    C.result("2026-11-24T07:00:06.000Z", t, out, is_error=False, tur={"stdout": out, "stderr": "", "interrupted": False}, source_uuid=a[-1]["uuid"])
    C.response(SONNET, [("2026-11-24T07:00:09.000Z", text("scripts\\ holds build.ps1 and release.ps1."), 40, "end_turn")],
               lambda o: usage(1, 200, 6000, o))


def case14_not_prompts():
    cwd = "/home/dev/not-prompts"
    L = reg(main_log(cwd, SIDS["notprompts"], "2.1.90", entrypoint="cli"))
    p1 = ("Set up a deploy script for staging. For now hardcode these, I will rotate them later: "
          "anthropic key %s and github token %s and the .env line %s" % (FAKE_ANTHROPIC, FAKE_GITHUB, FAKE_API_TOKEN_ASSIGN))
    first = L.user("2026-11-27T14:00:00.000Z", p1)
    L.add({"type": "file-history-snapshot", "messageId": first["uuid"],
           "snapshot": {"messageId": first["uuid"], "trackedFileBackups": {}, "timestamp": "2026-11-27T14:00:00.000Z"},
           "isSnapshotUpdate": False}, chain=False)
    t = tool_id()
    _, n1 = L.response(SONNET, [
        ("2026-11-27T14:00:04.000Z", thinking("Look at scripts/ first."), 15, None),
        ("2026-11-27T14:00:05.000Z", tool_use(t, "Bash", {"command": "ls scripts/", "description": "List scripts"}), 110, "tool_use"),
    ], lambda o: usage(3, 3000, 5000, o))
    L.result("2026-11-27T14:00:05.200Z", t, "build.sh\nrelease.sh", is_error=False, tur=bash_ok("build.sh\nrelease.sh"), source_uuid=n1[-1]["uuid"])
    _, n2 = L.response(SONNET, [("2026-11-27T14:00:09.000Z", text("scripts/ has build.sh and release.sh; there is no deploy script yet."), 60, "end_turn")],
                       lambda o: usage(1, 200, 8000, o))
    L.user("2026-11-27T14:10:00.000Z",
           "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.",
           extra={"isMeta": True})
    L.user("2026-11-27T14:10:00.000Z", "<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>")
    L.user("2026-11-27T14:10:00.000Z", "<local-command-stdout></local-command-stdout>")
    b = L.add({"parentUuid": None, "logicalParentUuid": n2[-1]["uuid"], "isSidechain": False, "userType": "external",
               "entrypoint": "cli", "cwd": cwd, "sessionId": L.sid, "version": L.version, "gitBranch": "main",
               "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False,
               "timestamp": "2026-11-27T14:20:00.000Z", "uuid": new_uuid(), "level": "info",
               "compactMetadata": {"trigger": "manual", "preTokens": 48211}})
    L.user("2026-11-27T14:20:00.000Z",
           "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nThe user wants a staging deploy script; scripts/ has build.sh and release.sh.",
           parent=b["uuid"], extra={"isVisibleInTranscriptOnly": True, "isCompactSummary": True})
    L.user("2026-11-27T14:20:01.000Z", [text("<system-reminder>\nThe TodoWrite tool hasn't been used recently. Consider using it to track progress.\n</system-reminder>")])
    L.user("2026-11-27T14:20:02.000Z",
           "<task-notification>\n<task-id>b7x2k9</task-id>\n<status>completed</status>\n<summary>Background command \"npm run build\" completed (exit code 0)</summary>\n</task-notification>")
    L.response(SONNET, [("2026-11-27T14:20:06.000Z", text("The background build finished. Shall I write the deploy script now?"), 45, "end_turn")],
               lambda o: usage(3, 4000, 3000, o))
    L.user("2026-11-27T14:20:07.000Z", [text("[Request interrupted by user]")])
    L.user("2026-11-27T14:21:00.000Z", "Actually, just write the deploy steps into DEPLOY.md")
    t2 = tool_id()
    _, n4 = L.response(SONNET, [("2026-11-27T14:21:05.000Z", tool_use(t2, "Write", {"file_path": "/home/dev/not-prompts/DEPLOY.md", "content": "# Deploy\n\n1. ./scripts/build.sh\n2. ./scripts/release.sh staging\n"}), 300, "tool_use")],
                       lambda o: usage(2, 120, 7000, o))
    L.result("2026-11-27T14:21:05.300Z", t2, "File created successfully at: /home/dev/not-prompts/DEPLOY.md",
             tur={"type": "create", "filePath": "/home/dev/not-prompts/DEPLOY.md",
                  "content": "# Deploy\n\n1. ./scripts/build.sh\n2. ./scripts/release.sh staging\n", "structuredPatch": []},
             source_uuid=n4[-1]["uuid"])
    L.response(SONNET, [("2026-11-27T14:21:08.000Z", text("Done: DEPLOY.md lists the two steps."), 20, "end_turn")],
               lambda o: usage(1, 400, 7100, o))


def case15_titles():
    cwd = "/home/dev/titles"
    # Session 2 first (session 1's stray summary points at one of its lines)
    T2 = reg(main_log(cwd, SIDS["titles2"], "2.1.90", entrypoint="cli"))
    p = T2.user("2026-11-28T13:00:00.000Z", "Fix the flaky webhook test in test/webhooks.test.ts")
    T2.add({"type": "file-history-snapshot", "messageId": p["uuid"],
            "snapshot": {"messageId": p["uuid"], "trackedFileBackups": {}, "timestamp": "2026-11-28T13:00:00.000Z"},
            "isSnapshotUpdate": False}, chain=False)
    T2.add({"type": "ai-title", "sessionId": T2.sid, "aiTitle": "Fix flaky webhook test"}, chain=False)
    r, e = tool_id(), tool_id()
    _, y1 = T2.response(OPUS45, [("2026-11-28T13:00:04.000Z", tool_use(r, "Read", {"file_path": "/home/dev/titles/test/webhooks.test.ts"}), 70, "tool_use")],
                        lambda o: usage(3, 1600, 6000, o))
    T2.result("2026-11-28T13:00:04.100Z", r, "     1\timport { sendWebhook } from '../src/lib/api';\n     2\t// retries with a real 100ms timer",
              tur={"type": "text", "file": {"filePath": "/home/dev/titles/test/webhooks.test.ts",
                                           "content": "import { sendWebhook } from '../src/lib/api';\n// retries with a real 100ms timer",
                                           "numLines": 2, "startLine": 1, "totalLines": 2}}, source_uuid=y1[-1]["uuid"])
    _, y2 = T2.response(OPUS45, [("2026-11-28T13:00:11.000Z", tool_use(e, "Edit", {"file_path": "/home/dev/titles/src/lib/api.ts",
                                                                                     "old_string": "const RETRY_DELAY_MS = 100;",
                                                                                     "new_string": "export const RETRY_DELAY_MS = 100;"}), 210, "tool_use")],
                        lambda o: usage(1, 400, 7600, o))
    T2.result("2026-11-28T13:00:11.200Z", e, "The file /home/dev/titles/src/lib/api.ts has been updated successfully.",
              tur={"filePath": "/home/dev/titles/src/lib/api.ts", "oldString": "const RETRY_DELAY_MS = 100;",
                   "newString": "export const RETRY_DELAY_MS = 100;", "originalFile": None, "structuredPatch": [],
                   "userModified": False, "replaceAll": False}, source_uuid=y2[-1]["uuid"])
    T2.add({"type": "custom-title", "customTitle": "webhook-flake-hunt", "sessionId": T2.sid}, chain=False)
    T2.add({"type": "ai-title", "sessionId": T2.sid, "aiTitle": "Stabilise webhook retry test"}, chain=False)
    _, y3 = T2.response(OPUS45, [("2026-11-28T13:00:15.000Z", text("Exported RETRY_DELAY_MS so the test can use fake timers; the flake is gone."), 90, "end_turn")],
                        lambda o: usage(1, 300, 8000, o))
    t2_leaf = y3[-1]["uuid"]

    T1 = reg(main_log(cwd, SIDS["titles1"], "2.1.27"))
    T1.add({"type": "summary", "summary": "Stabilise webhook retry test", "leafUuid": t2_leaf}, chain=False)
    summary_own_idx = len(T1.lines)
    T1.add({"type": "summary", "summary": "PLACEHOLDER", "leafUuid": "PLACEHOLDER"}, chain=False)
    T1.user("2026-11-28T09:00:00.000Z", "Move the API client from src/api.ts into src/lib/api.ts and update imports")
    td1, rd, wr, ed, td2 = (tool_id() for _ in range(5))
    todos1 = [{"content": "Move client to src/lib/api.ts", "status": "pending", "activeForm": "Moving client to src/lib/api.ts"},
              {"content": "Update imports", "status": "pending", "activeForm": "Updating imports"},
              {"content": "Run the test suite", "status": "pending", "activeForm": "Running the test suite"}]
    todos2 = [{"content": "Move client to src/lib/api.ts", "status": "completed", "activeForm": "Moving client to src/lib/api.ts"},
              {"content": "Update imports", "status": "in_progress", "activeForm": "Updating imports"},
              {"content": "Run the test suite", "status": "pending", "activeForm": "Running the test suite"}]
    todo_msg = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"
    _, x = T1.response(OPUS45, [("2026-11-28T09:00:04.000Z", tool_use(td1, "TodoWrite", {"todos": todos1}), 150, "tool_use")],
                       lambda o: usage(3, 2000, 6000, o))
    T1.result("2026-11-28T09:00:04.100Z", td1, todo_msg, tur={"oldTodos": [], "newTodos": todos1}, source_uuid=x[-1]["uuid"])
    _, x = T1.response(OPUS45, [("2026-11-28T09:00:07.000Z", tool_use(rd, "Read", {"file_path": "/home/dev/titles/src/api.ts"}), 60, "tool_use")],
                       lambda o: usage(1, 300, 8000, o))
    T1.result("2026-11-28T09:00:07.100Z", rd, "     1\texport async function sendWebhook(url: string) {",
              tur={"type": "text", "file": {"filePath": "/home/dev/titles/src/api.ts", "content": "export async function sendWebhook(url: string) {",
                                           "numLines": 1, "startLine": 1, "totalLines": 1}}, source_uuid=x[-1]["uuid"])
    _, x = T1.response(OPUS45, [("2026-11-28T09:00:15.000Z", tool_use(wr, "Write", {"file_path": "/home/dev/titles/src/lib/api.ts",
                                                                                      "content": "const RETRY_DELAY_MS = 100;\nexport async function sendWebhook(url: string) {\n}\n"}), 500, "tool_use")],
                       lambda o: usage(1, 400, 8300, o))
    T1.result("2026-11-28T09:00:15.200Z", wr, "File created successfully at: /home/dev/titles/src/lib/api.ts",
              tur={"type": "create", "filePath": "/home/dev/titles/src/lib/api.ts",
                   "content": "const RETRY_DELAY_MS = 100;\nexport async function sendWebhook(url: string) {\n}\n", "structuredPatch": []},
              source_uuid=x[-1]["uuid"])
    _, x = T1.response(OPUS45, [("2026-11-28T09:00:21.000Z", tool_use(ed, "Edit", {"file_path": "/home/dev/titles/src/index.ts",
                                                                                     "old_string": "from './api'", "new_string": "from './lib/api'"}), 120, "tool_use")],
                       lambda o: usage(1, 600, 8700, o))
    T1.result("2026-11-28T09:00:21.200Z", ed, "The file /home/dev/titles/src/index.ts has been updated successfully.",
              tur={"filePath": "/home/dev/titles/src/index.ts", "oldString": "from './api'", "newString": "from './lib/api'",
                   "originalFile": "export * from './api';\n", "structuredPatch": [], "userModified": False, "replaceAll": False},
              source_uuid=x[-1]["uuid"])
    _, x = T1.response(OPUS45, [("2026-11-28T09:00:25.000Z", tool_use(td2, "TodoWrite", {"todos": todos2}), 130, "tool_use")],
                       lambda o: usage(1, 200, 9300, o))
    T1.result("2026-11-28T09:00:25.100Z", td2, todo_msg, tur={"oldTodos": todos1, "newTodos": todos2}, source_uuid=x[-1]["uuid"])
    T1.add({"type": "pr-link", "prNumber": 42, "prUrl": "https://github.com/dev/titles/pull/42", "prRepository": "dev/titles",
            "timestamp": "2026-11-28T09:01:10.000Z", "sessionId": T1.sid}, chain=False)
    _, x = T1.response(OPUS45, [("2026-11-28T09:01:12.000Z", text("Moved the client to src/lib/api.ts, updated the import in src/index.ts and opened PR #42. The test suite still needs a run."), 80, "end_turn")],
                       lambda o: usage(1, 100, 9500, o))
    T1.lines[summary_own_idx] = dumps({"type": "summary", "summary": "Move API client into src/lib", "leafUuid": x[-1]["uuid"]})


def case16_cost_state():
    cwd = "/home/dev/cost-state"
    model = "claude-opus-5-5"

    def u(i, c1h, cr, o, think):
        return usage(i, c1h, cr, o, c5=0, c1=c1h, extra={"output_tokens_details": {"thinking_tokens": think},
                                                          "inference_geo": "", "speed": "standard"})

    def api_request(L, ts):
        rid = "areq_" + rand62(20)
        L.add({"type": "api-request", "id": rid, "timestamp": ts, "sessionId": L.sid,
               "params": {"model": model, "max_tokens": 32000, "thinking": {"type": "adaptive"}, "effort": "high"}}, chain=False)
        return rid

    def cost_state(L, inp, out, cr, cc1h, think, cost):
        L.add({"type": "cost-state", "sessionId": L.sid, "totalCostUSD": cost, "totalAPIDuration": 14210,
               "totalDuration": 21877, "totalLinesAdded": 12, "totalLinesRemoved": 3,
               "modelUsage": {model: {"inputTokens": inp, "outputTokens": out, "thinkingTokens": think,
                                      "cacheReadInputTokens": cr, "cacheCreationInputTokens": cc1h,
                                      "cacheCreation5mInputTokens": 0, "cacheCreation1hInputTokens": cc1h,
                                      "webSearchRequests": 0, "costUSD": cost}}}, chain=False)

    env = {"promptSource": "sdk"}
    A = reg(main_log(cwd, SIDS["costAgree"], "2.1.328", branch="HEAD", entrypoint="sdk-cli"))
    A.user("2026-11-28T16:00:00.000Z", "Add a --dry-run flag to the sync command")
    rid = api_request(A, "2026-11-28T16:00:00.050Z")
    t = tool_id()
    _, k1 = A.response(model, [
        ("2026-11-28T16:00:06.000Z", thinking("Find the sync command's flag set."), 240, None),
        ("2026-11-28T16:00:06.500Z", text("Let me look at the sync command."), 240, None),
        ("2026-11-28T16:00:07.000Z", tool_use(t, "Bash", {"command": "grep -n 'flag' cmd/sync.go", "description": "Find flags"}), 240, "tool_use"),
    ], lambda o: u(6, 5000, 20000, o, 80), extra={"requestRef": rid, "requestedModel": model})
    A.result("2026-11-28T16:00:08.000Z", t, "12:\tfs := flag.NewFlagSet(\"sync\", flag.ExitOnError)", is_error=False,
             tur=bash_ok("12:\tfs := flag.NewFlagSet(\"sync\", flag.ExitOnError)"), source_uuid=k1[-1]["uuid"])
    rid = api_request(A, "2026-11-28T16:00:08.050Z")
    A.response(model, [("2026-11-28T16:00:11.000Z", text("Added --dry-run to cmd/sync.go; it prints the plan without applying it."), 120, "end_turn")],
               lambda o: u(2, 300, 25000, o, 0), extra={"requestRef": rid, "requestedModel": model})
    # agrees: 8 in, 360 out, 45000 cache read, 5300 cache creation (all 1h)
    cost_state(A, 8, 360, 45000, 5300, 80, 0.058632)

    B = reg(main_log(cwd, SIDS["costDiffer"], "2.1.328", branch="HEAD", entrypoint="sdk-cli"))
    B.user("2026-11-28T18:00:00.000Z", "What does internal/sync/plan.go do?")
    rid = api_request(B, "2026-11-28T18:00:00.050Z")
    B.response(model, [("2026-11-28T18:00:05.000Z", text("I'll need to read it; want me to?"), 150, "end_turn")],
               lambda o: u(4, 2000, 10000, o, 0), extra={"requestRef": rid, "requestedModel": model})
    B.user("2026-11-28T18:01:00.000Z", "Yes, read it and explain")
    rid = api_request(B, "2026-11-28T18:01:00.050Z")
    t = tool_id()
    _, q2 = B.response(model, [
        ("2026-11-28T18:01:04.000Z", text("Reading plan.go."), 310, None),
        ("2026-11-28T18:01:04.400Z", tool_use(t, "Read", {"file_path": "/home/dev/cost-state/internal/sync/plan.go"}), 310, "tool_use"),
    ], lambda o: u(1, 200, 12000, o, 0), extra={"requestRef": rid, "requestedModel": model})
    B.result("2026-11-28T18:01:04.500Z", t, "     1\tpackage sync\n     2\t// Plan diffs local and remote state.",
             tur={"type": "text", "file": {"filePath": "/home/dev/cost-state/internal/sync/plan.go",
                                          "content": "package sync\n// Plan diffs local and remote state.", "numLines": 2,
                                          "startLine": 1, "totalLines": 2}}, source_uuid=q2[-1]["uuid"])
    rid = api_request(B, "2026-11-28T18:01:04.550Z")
    B.response(model, [("2026-11-28T18:01:09.000Z", text("plan.go computes the diff between local and remote state and orders the operations."), 60, "end_turn")],
               lambda o: u(1, 100, 12200, o, 0), extra={"requestRef": rid, "requestedModel": model})
    # differs: outputTokens 830 (the naive per-line sum 150+310+310+60) instead of 520
    cost_state(B, 6, 830, 34200, 2300, 0, 0.041864)


def case17_malformed():
    cwd = "/home/dev/malformed"
    L = reg(main_log(cwd, SIDS["malformed"], "2.1.90", entrypoint="cli"))
    L.user("2026-11-29T09:00:00.000Z", "Rename the config loader to readConfig")
    L.response(SONNET, [("2026-11-29T09:00:04.000Z", text("Renaming loadConfig to readConfig across the package."), 70, "end_turn")],
               lambda o: usage(3, 800, 2000, o))
    L.raw('this is not json {"oops": "the writer crashed here')
    # a user line without "message" (schema drift)
    e = L.env(LAST)
    e.update({"type": "user", "uuid": new_uuid(), "timestamp": "2026-11-29T09:00:10.000Z"})
    L.add(e)
    L.add({"type": "frobnicate", "frobLevel": 3, "sessionId": L.sid, "uuid": new_uuid(), "timestamp": "2026-11-29T09:00:11.000Z"}, chain=False)
    L.response(SONNET, [("2026-11-29T09:00:14.000Z", text("Done: loadConfig is now readConfig."), 40, "end_turn")],
               lambda o: usage(1, 200, 2800, o))


def case18_midnight():
    L = reg(main_log("/home/dev/midnight", SIDS["midnight"], "2.1.90", entrypoint="cli"))
    steps = [
        ("2026-11-25T22:29:55.000Z", "Start the nightly data migration dry run", "2026-11-25T22:30:00.000Z", (10, 1000, 0, 100)),
        ("2026-11-25T23:49:50.000Z", "How far along is it?", "2026-11-25T23:50:00.000Z", (20, 2000, 1000, 200)),
        ("2026-11-26T00:19:50.000Z", "Any errors so far?", "2026-11-26T00:20:00.000Z", (30, 400, 3000, 300)),
        ("2026-11-26T01:29:50.000Z", "Summarise the dry run results", "2026-11-26T01:30:00.000Z", (40, 800, 3400, 400)),
    ]
    for pts, ptxt, ats, (i, cc, cr, o) in steps:
        L.user(pts, ptxt)
        L.response(SONNET, [(ats, text("Status update for: " + ptxt.lower()), o, "end_turn")],
                   lambda out, i=i, cc=cc, cr=cr: usage(i, cc, cr, out))


def case19_spill():
    cwd = "/home/dev/spill"
    sid = SIDS["spill"]
    L = reg(main_log(cwd, sid, "2.1.90", entrypoint="cli"))
    L.user("2026-11-29T11:00:00.000Z", "Why is the integration suite slow? Dump the full test log.")
    t1 = SPILL_TOOL_ID
    _, s1 = L.response(SONNET, [("2026-11-29T11:00:04.000Z", tool_use(t1, "Bash", {"command": "go test -v ./integration/... 2>&1", "description": "Run integration tests verbosely"}), 80, "tool_use")],
                       lambda o: usage(3, 1200, 4000, o))
    spill_path = "/home/dev/.claude/projects/-home-dev-spill/%s/tool-results/%s.txt" % (sid, t1)
    preview = "=== RUN   TestCheckout\n--- PASS: TestCheckout (12.40s)\n=== RUN   TestRefund\n--- PASS: TestRefund (11.95s)\n"
    L.result("2026-11-29T11:01:30.000Z", t1,
             "<persisted-output>\nOutput too large (38.2KB). Full output saved to: %s\n\nPreview (first 2KB):\n%s...\n</persisted-output>" % (spill_path, preview),
             is_error=False,
             tur={"stdout": preview, "stderr": "", "interrupted": False, "isImage": False,
                  "persistedOutputPath": spill_path, "persistedOutputSize": 39117},
             source_uuid=s1[-1]["uuid"])
    t2 = tool_id()
    _, s2 = L.response(SONNET, [("2026-11-29T11:01:35.000Z", tool_use(t2, "Bash", {"command": "cat deploy/ci_key.pem", "description": "Show the CI deploy key file"}), 60, "tool_use")],
                       lambda o: usage(1, 400, 5200, o))
    L.result("2026-11-29T11:01:35.200Z", t2, FAKE_PEM, is_error=False, tur=bash_ok(FAKE_PEM), source_uuid=s2[-1]["uuid"])
    L.response(SONNET, [("2026-11-29T11:01:40.000Z", text("Each test waits on a real 10s settlement timer. Also: deploy/ci_key.pem is a private key committed to the repo; remove and rotate it."), 150, "end_turn")],
               lambda o: usage(1, 300, 5600, o))
    d = os.path.join(ROOT, encode_cwd(cwd), sid, "tool-results")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, t1 + ".txt"), "w", encoding="utf-8") as f:
        f.write(preview +
                "=== RUN   TestSettlement\n"
                "    settlement_test.go:88: waiting for settlement window (zanzibar-marker)\n"
                "--- PASS: TestSettlement (10.02s)\n"
                "PASS\n"
                "ok  \texample.com/spill/integration\t34.411s\n")


def main():
    if os.path.isdir(ROOT):
        shutil.rmtree(ROOT)
    for fn in (case01_split_usage, case02_proxy, case03_shared_msg, case04_outcomes, case05_live_torn,
               case06_finished_torn, case07a_nested, case07b_legacy, case07c_inline, case08_cache_split,
               case09_models, case10_above_200k, case11_no_cwd, case12_prefix_twins, case13_two_folders,
               case14_not_prompts, case15_titles, case16_cost_state, case17_malformed, case18_midnight,
               case19_spill):
        fn()
    for L in LOGS:
        L.write()
    for L in LOGS:
        print("%4d lines%s  %s" % (len(L.lines), " +torn" if L.torn else "", os.path.relpath(L.path, HERE)))


if __name__ == "__main__":
    main()
