#!/usr/bin/env python3
"""Regenerate the replay fixture log root testdata/replay/ (its -home-dev-* folders).

One project folder per rule of SPEC §3 that concerns copies: workers and
resumed sessions that replay earlier lines, relays that reuse one message.id,
advisor iterations, the 2.1.152 cache split, a final API error and a copied
old session. The committed .jsonl files are the fixtures; this script only
rebuilds them byte-for-byte (fixed session and tool ids, the seeded RNG of
../make_fixtures.py for line uuids and message ids).

Every usage number is written literally below; EXPECTED.md works the figures
out by hand from these literals, and check.py verifies them by reading the
files with its own implementation of the rules.

Usage:  python3 testdata/replay/make.py
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
import make_fixtures as mf  # noqa: E402  (the Log writer and line helpers)

ROOT = HERE  # the log root itself; make.py, check.py and EXPECTED.md beside the folders are not transcripts
mf.RNG.seed(20261130)

SONNET = mf.SONNET            # claude-sonnet-4-5-20250929, priced by prefix
OPUS45 = mf.OPUS45            # claude-opus-4-5-20251101, priced by prefix
HAIKU = mf.HAIKU              # claude-haiku-4-5-20251001, priced by prefix
ADVISOR = "claude-opus-4-5"   # exact key
UNPRICED_ADVISOR = "claude-advisor-preview"

SIDS = {
    "workers": "3f1c9a2e-7b4d-4c8e-9a61-0d2e5b7c4f18",
    "resumedA": "5a0e2c71-94d3-4b6f-8e12-7c3a9f0b6d25",
    "resumedB": "b7d41f93-2c6a-4e8b-a5d0-19e7c3f28a64",
    "relay": "c2e8f046-1a7b-4d39-b8c5-6f0d2a9e3b71",
    "advisor": "d49a7e12-5c3f-4b80-9e6d-2a1f8c0b7e53",
    "advisorUnpriced": "e6b03c5d-8f21-4a97-b4e0-7d9c2f1a6e38",
    "cache152": "f8a2d6b1-3e9c-4f05-a7d2-8c6b1e0f4a97",
    "apierror": "1b9e4d7a-6c20-4e83-9f5a-3d8c0b2e7f16",
    "copied": "2d7c5f08-b3a1-4c6e-8d94-5e0a7b1c3f62",
}

# Tool ids are fixed so EXPECTED.md can name them.
T = {
    "gitAddWrong": "toolu_01GitAddWrongPath7hQ2mZ",
    "gitAddRight": "toolu_01GitAddRightPath4kX9pL",
    "editChangelog": "toolu_01EditChangelog2vN8sRw",
    "gitCommit": "toolu_01GitCommitFix6tB3yHq",
    "asideGrep": "toolu_01AsideGrepLexer5mJ7c",
    "asideRead": "toolu_01AsideReadMissing8wQ",
    "forkTest": "toolu_01ForkGoTestFail3nV5x",
    "compactRead": "toolu_01CompactReadLog9pF2d",
    "resRead": "toolu_01ResumeReadExport1aZ",
    "resEdit": "toolu_01ResumeEditExport2bY",
    "resTestFail": "toolu_01ResumeGoTestFail3cX",
    "resEdit2": "toolu_01ResumedEditExport4dW",
    "resTestOk": "toolu_01ResumedGoTestOk5eV4",
    "relayGrep": "toolu_01RelayGrepBudget6fU3",
    "relayRead": "toolu_01RelayReadConfig7gT2",
    "advRead": "toolu_01AdvisorReadPlan8hS1",
    "advEdit": "toolu_01AdvisorEditPlan9iR0",
    "cacheBash": "toolu_01CacheGrepMisses0jQ9",
    "copiedRead": "toolu_01CopiedReadMkdocs1kP",
    "copiedBash": "toolu_01CopiedMkdocsBuild2l",
}

LOGS = []


def log(folder, sid, cwd, version, rel=None, **kw):
    path = os.path.join(ROOT, folder, rel or sid + ".jsonl")
    L = mf.Log(path, sid, cwd, version, **kw)
    LOGS.append(L)
    return L


def u(inp, cc, cr, out, c5=None, c1=None, split=True, iterations=None, top_cc=None):
    """Usage as 2.1.x writes it. top_cc overrides cache_creation_input_tokens
    (2.1.152 writes 0 there beside a non-zero split)."""
    d = mf.usage(inp, cc, cr, out, c5=c5, c1=c1, split=split)
    if top_cc is not None:
        d["cache_creation_input_tokens"] = top_cc
    if iterations is not None:
        d["iterations"] = iterations
    return d


def copy_line(src, dst, agent_id=None, sid=None):
    """A verbatim copy of one line as Claude Code writes it into a worker or a
    resumed session: same uuid, parentUuid, timestamp, message (ids, usage,
    content); only the envelope says where it now lives."""
    d = json.loads(src)
    if agent_id is not None:
        d["isSidechain"] = True
        d["agentId"] = agent_id
    if sid is not None and "sessionId" in d:
        d["sessionId"] = sid
    dst.add(d)


def start_worker(W, prefix, tip):
    """Begin a special worker's file with its verbatim copy of the parent's
    prefix; its own lines then continue from the parent's tip."""
    for line in prefix:
        copy_line(line, W, agent_id=W.agent_id)
    W.last_uuid = tip


def bash_err(txt):
    return "Error: " + txt


# ---------------------------------------------------------------------------
def case_a_workers():
    cwd, folder, sid, ver = "/home/dev/workers", "-home-dev-workers", SIDS["workers"], "2.1.119"
    slug = "steady-parsing-wren"
    M = log(folder, sid, cwd, ver, slug=slug, entrypoint="cli")
    sub = os.path.join(sid, "subagents")
    A = log(folder, sid, cwd, ver, rel=os.path.join(sub, "agent-aside_question-5e0b93a1c7d24f68.jsonl"),
            sidechain=True, agent_id="aside_question-5e0b93a1c7d24f68", slug=slug, entrypoint="cli")
    F = log(folder, sid, cwd, ver, rel=os.path.join(sub, "agent-a3f9c0e27b8d41a56.jsonl"),
            sidechain=True, agent_id="a3f9c0e27b8d41a56", slug=slug, entrypoint="cli")
    C = log(folder, sid, cwd, ver, rel=os.path.join(sub, "agent-acompact-7c41d2.jsonl"),
            sidechain=True, agent_id="acompact-7c41d2", slug=slug, entrypoint="cli")
    os.makedirs(os.path.join(ROOT, folder, sub), exist_ok=True)
    with open(os.path.join(ROOT, folder, sub, "agent-a3f9c0e27b8d41a56.meta.json"), "w") as f:
        f.write(mf.dumps({"agentType": "fork", "description": "Run the parser tests in a fork"}) + "\n")

    # Main thread, part 1: the prefix every worker copies (9 lines).
    M.user("2026-11-29T10:00:00.000Z", "Stage the parser fix and add a changelog entry")
    _, m1 = M.response(SONNET, [
        ("2026-11-29T10:00:03.000Z", mf.text("I'll stage the parser fix first."), 110, None),
        ("2026-11-29T10:00:03.400Z", mf.tool_use(T["gitAddWrong"], "Bash", {"command": "git add parser.go", "description": "Stage the parser fix"}), 110, "tool_use"),
    ], lambda o: u(3, 2000, 9000, o))
    err = "Exit code 128\nfatal: pathspec 'parser.go' did not match any files"
    M.result("2026-11-29T10:00:04.000Z", T["gitAddWrong"], err, is_error=True, tur=bash_err(err), source_uuid=m1[-1]["uuid"])
    _, m2 = M.response(SONNET, [
        ("2026-11-29T10:00:07.000Z", mf.tool_use(T["gitAddRight"], "Bash", {"command": "git add internal/parser/parser.go", "description": "Stage the parser fix"}), 70, "tool_use"),
    ], lambda o: u(1, 200, 11000, o))
    M.result("2026-11-29T10:00:07.300Z", T["gitAddRight"], "", is_error=False, tur=mf.bash_ok(""), source_uuid=m2[-1]["uuid"])
    edit = {"file_path": "/home/dev/workers/CHANGELOG.md", "old_string": "## Unreleased\n",
            "new_string": "## Unreleased\n\n- parser: accept empty input\n"}
    _, m3 = M.response(SONNET, [
        ("2026-11-29T10:00:12.000Z", mf.tool_use(T["editChangelog"], "Edit", edit), 160, "tool_use"),
    ], lambda o: u(1, 300, 11200, o))
    M.result("2026-11-29T10:00:12.200Z", T["editChangelog"], "The file /home/dev/workers/CHANGELOG.md has been updated successfully.",
             tur={"filePath": edit["file_path"], "oldString": edit["old_string"], "newString": edit["new_string"],
                  "originalFile": "## Unreleased\n", "structuredPatch": [], "userModified": False, "replaceAll": False},
             source_uuid=m3[-1]["uuid"])
    _, m4 = M.response(SONNET, [
        ("2026-11-29T10:00:15.000Z", mf.text("Staged internal/parser/parser.go (the first `git add` used the wrong path) and added a changelog entry."), 90, "end_turn"),
    ], lambda o: u(1, 400, 11500, o))
    prefix = list(M.lines)
    assert len(prefix) == 9

    # aside_question worker: the prefix, then its own question and two calls (the Read fails).
    start_worker(A, prefix, m4[-1]["uuid"])
    A.user("2026-11-29T10:01:00.000Z", "Which file holds the tokenizer?")
    _, s1 = A.response(SONNET, [
        ("2026-11-29T10:01:02.000Z", mf.text("Let me look."), 8, None),
        ("2026-11-29T10:01:02.300Z", mf.tool_use(T["asideGrep"], "Grep", {"pattern": "func Tokenize", "path": "/home/dev/workers", "output_mode": "files_with_matches"}), 64, "tool_use"),
    ], lambda o: u(2, 600, 12000, o))
    A.result("2026-11-29T10:01:02.500Z", T["asideGrep"], "Found 1 file\n/home/dev/workers/internal/parser/lexer.go")
    _, s2 = A.response(SONNET, [
        ("2026-11-29T10:01:04.000Z", mf.tool_use(T["asideRead"], "Read", {"file_path": "/home/dev/workers/internal/parser/tokenizer.go"}), 40, "tool_use"),
    ], lambda o: u(1, 100, 12600, o))
    A.result("2026-11-29T10:01:04.100Z", T["asideRead"], "File does not exist. Note: your current working directory is /home/dev/workers.", is_error=True)
    A.response(SONNET, [
        ("2026-11-29T10:01:07.000Z", mf.text("The tokenizer is in internal/parser/lexer.go (func Tokenize); there is no tokenizer.go."), 55, "end_turn"),
    ], lambda o: u(1, 200, 12700, o))

    # fork worker: the prefix, then straight into its own response (no prompt line),
    # so its first_prompt is the meta.json description.
    start_worker(F, prefix, m4[-1]["uuid"])
    _, f1 = F.response(SONNET, [
        ("2026-11-29T10:02:03.000Z", mf.text("Running the parser tests."), 9, None),
        ("2026-11-29T10:02:03.400Z", mf.tool_use(T["forkTest"], "Bash", {"command": "go test ./internal/parser/...", "description": "Run parser tests"}), 75, "tool_use"),
    ], lambda o: u(2, 500, 11900, o))
    F.result("2026-11-29T10:02:05.000Z", T["forkTest"],
             "Exit code 1\n--- FAIL: TestParseEmpty (0.00s)\n    parser_test.go:41: got error \"unexpected EOF\", want nil\nFAIL\nFAIL\texample.com/workers/internal/parser\t0.012s",
             is_error=True)
    F.response(SONNET, [
        ("2026-11-29T10:02:08.000Z", mf.text("TestParseEmpty still fails: the parser returns unexpected EOF on empty input."), 60, "end_turn"),
    ], lambda o: u(1, 300, 12400, o))

    # acompact worker: the prefix, the summariser prompt, one Read, the summary.
    start_worker(C, prefix, m4[-1]["uuid"])
    C.user("2026-11-29T10:05:00.000Z",
           "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.")
    _, c1 = C.response(SONNET, [
        ("2026-11-29T10:05:03.000Z", mf.tool_use(T["compactRead"], "Read", {"file_path": "/home/dev/workers/CHANGELOG.md"}), 45, "tool_use"),
    ], lambda o: u(2, 800, 11500, o))
    C.result("2026-11-29T10:05:03.100Z", T["compactRead"], "     1\t## Unreleased\n     2\t\n     3\t- parser: accept empty input")
    C.response(SONNET, [
        ("2026-11-29T10:05:10.000Z", mf.thinking("Summarise the staging and the changelog entry."), 20, None),
        ("2026-11-29T10:05:20.000Z", mf.text("<summary>1. Primary request: stage the parser fix and add a changelog entry. 2. `git add parser.go` failed (wrong path); internal/parser/parser.go was staged. 3. CHANGELOG.md got an entry.</summary>"), 380, "end_turn"),
    ], lambda o: u(1, 300, 12300, o))

    # Main thread, part 2: compaction, then the commit.
    b = M.add({"parentUuid": None, "logicalParentUuid": m4[-1]["uuid"], "isSidechain": False, "userType": "external",
               "entrypoint": "cli", "cwd": cwd, "sessionId": sid, "version": ver, "gitBranch": "main", "slug": slug,
               "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False,
               "timestamp": "2026-11-29T10:05:21.000Z", "uuid": mf.new_uuid(), "level": "info",
               "compactMetadata": {"trigger": "auto", "preTokens": 168420}})
    M.user("2026-11-29T10:05:21.000Z",
           "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n1. Primary request: stage the parser fix and add a changelog entry.",
           parent=b["uuid"], extra={"isVisibleInTranscriptOnly": True, "isCompactSummary": True})
    M.user("2026-11-29T10:06:00.000Z", "Commit the staged fix")
    _, m5 = M.response(SONNET, [
        ("2026-11-29T10:06:04.000Z", mf.tool_use(T["gitCommit"], "Bash", {"command": "git commit -m \"parser: accept empty input\"", "description": "Commit the fix"}), 85, "tool_use"),
    ], lambda o: u(3, 1200, 4000, o))
    out = "[main 4e1a2b3] parser: accept empty input\n 2 files changed, 5 insertions(+), 1 deletion(-)"
    M.result("2026-11-29T10:06:04.500Z", T["gitCommit"], out, is_error=False, tur=mf.bash_ok(out), source_uuid=m5[-1]["uuid"])
    M.response(SONNET, [("2026-11-29T10:06:07.000Z", mf.text("Committed as 4e1a2b3."), 30, "end_turn")],
               lambda o: u(1, 200, 5200, o))


def case_b_resumed():
    cwd, folder, ver = "/home/dev/resumed", "-home-dev-resumed", "2.1.90"
    R1 = log(folder, SIDS["resumedA"], cwd, ver, entrypoint="cli")
    R1.user("2026-11-28T14:00:00.000Z", "Add a --json flag to the export command")
    _, a1 = R1.response(OPUS45, [
        ("2026-11-28T14:00:03.000Z", mf.text("Reading the export command first."), 20, None),
        ("2026-11-28T14:00:03.500Z", mf.tool_use(T["resRead"], "Read", {"file_path": "/home/dev/resumed/cmd/export.go"}), 60, "tool_use"),
    ], lambda o: u(4, 1600, 8000, o))
    R1.result("2026-11-28T14:00:03.600Z", T["resRead"], "     1\tfs.Bool(\"csv\", false, \"write CSV\")", source_uuid=a1[-1]["uuid"])
    e1 = {"file_path": "/home/dev/resumed/cmd/export.go", "old_string": "fs.Bool(\"csv\", false, \"write CSV\")",
          "new_string": "fs.Bool(\"csv\", false, \"write CSV\")\n\tfs.Bool(\"json\", false, \"write JSON\")"}
    _, a2 = R1.response(OPUS45, [("2026-11-28T14:00:09.000Z", mf.tool_use(T["resEdit"], "Edit", e1), 180, "tool_use")],
                        lambda o: u(1, 400, 9600, o))
    R1.result("2026-11-28T14:00:09.200Z", T["resEdit"], "The file /home/dev/resumed/cmd/export.go has been updated successfully.",
              source_uuid=a2[-1]["uuid"])
    _, a3 = R1.response(OPUS45, [("2026-11-28T14:00:12.000Z", mf.tool_use(T["resTestFail"], "Bash", {"command": "go test ./cmd/...", "description": "Run the cmd tests"}), 50, "tool_use")],
                        lambda o: u(1, 200, 10000, o))
    err = "Exit code 1\n--- FAIL: TestExportJSON (0.00s)\n    export_test.go:22: missing trailing newline\nFAIL"
    R1.result("2026-11-28T14:00:15.000Z", T["resTestFail"], err, is_error=True, tur=bash_err(err), source_uuid=a3[-1]["uuid"])
    R1.response(OPUS45, [("2026-11-28T14:00:18.000Z", mf.text("Added --json; TestExportJSON fails on a missing trailing newline."), 70, "end_turn")],
                lambda o: u(1, 300, 10200, o))

    # The resumed session: a new id, R1's lines replayed verbatim (uuids, message ids,
    # tool ids, results, timestamps), then its own turn.
    R2 = log(folder, SIDS["resumedB"], cwd, ver, entrypoint="cli")
    for line in R1.lines:
        copy_line(line, R2, sid=R2.sid)
    R2.user("2026-11-28T16:30:00.000Z", "Fix the failing test and rerun it")
    e2 = {"file_path": "/home/dev/resumed/cmd/export.go", "old_string": "fmt.Fprint(w, string(b))", "new_string": "fmt.Fprintln(w, string(b))"}
    _, b1 = R2.response(OPUS45, [("2026-11-28T16:30:05.000Z", mf.tool_use(T["resEdit2"], "Edit", e2), 120, "tool_use")],
                        lambda o: u(3, 2400, 8000, o))
    R2.result("2026-11-28T16:30:05.200Z", T["resEdit2"], "The file /home/dev/resumed/cmd/export.go has been updated successfully.",
              source_uuid=b1[-1]["uuid"])
    _, b2 = R2.response(OPUS45, [("2026-11-28T16:30:10.000Z", mf.tool_use(T["resTestOk"], "Bash", {"command": "go test ./cmd/...", "description": "Run the cmd tests"}), 45, "tool_use")],
                        lambda o: u(1, 200, 10400, o))
    ok = "ok  \texample.com/export/cmd\t0.031s"
    R2.result("2026-11-28T16:30:12.000Z", T["resTestOk"], ok, is_error=False, tur=mf.bash_ok(ok), source_uuid=b2[-1]["uuid"])
    R2.response(OPUS45, [("2026-11-28T16:30:15.000Z", mf.text("Fixed: the JSON writer now ends with a newline; go test ./cmd/... passes."), 40, "end_turn")],
                lambda o: u(1, 100, 10600, o))


def case_c_relay():
    cwd, folder, sid = "/home/dev/relay", "-home-dev-relay", SIDS["relay"]
    L = log(folder, sid, cwd, "2.1.90", branch="HEAD")
    model = "claude-sonnet-4-5"
    ZERO4 = {"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 0}
    ZERO2 = {"input_tokens": 0, "output_tokens": 0}

    def relay_u(inp, cc, cr, out):
        return {"input_tokens": inp, "cache_creation_input_tokens": cc, "cache_read_input_tokens": cr, "output_tokens": out}

    def line(ts, block, usage, stop=None):
        return L.assistant(ts, model, "ocgo", block, usage, stop=stop, rid=None)

    L.user("2026-11-27T09:00:00.000Z", "Find where the retry budget is configured")
    # X1: an all-zero proxy copy, then the final copy.
    line("2026-11-27T09:00:02.000Z", mf.thinking("Search for the budget."), dict(ZERO4))
    x1 = line("2026-11-27T09:00:02.600Z", mf.tool_use(T["relayGrep"], "Grep", {"pattern": "retryBudget", "path": "/home/dev/relay", "output_mode": "files_with_matches"}),
              relay_u(1200, 2000, 0, 48), stop="tool_use")
    L.result("2026-11-27T09:00:02.800Z", T["relayGrep"], "Found 1 file\n/home/dev/relay/config/retry.go", source_uuid=x1["uuid"])
    # X2: split copies, same input side, output growing.
    line("2026-11-27T09:00:05.000Z", mf.text("It is in config/retry.go."), relay_u(150, 400, 3200, 12))
    x2 = line("2026-11-27T09:00:05.400Z", mf.tool_use(T["relayRead"], "Read", {"file_path": "/home/dev/relay/config/retry.go"}),
              relay_u(150, 400, 3200, 96), stop="tool_use")
    L.result("2026-11-27T09:00:05.500Z", T["relayRead"], "     1\tvar retryBudget = budget.New(0.2, 10)", source_uuid=x2["uuid"])
    # X3: two all-zero copies, then the final one (same input_tokens as X2, other cache reads).
    line("2026-11-27T09:00:09.000Z", mf.thinking("Answer with the file and the constructor."), dict(ZERO2))
    line("2026-11-27T09:00:09.300Z", mf.text("The retry budget"), dict(ZERO4))
    line("2026-11-27T09:00:09.900Z", mf.text("The retry budget is built in config/retry.go by budget.New(0.2, 10)."),
         relay_u(150, 240, 3600, 130), stop="end_turn")
    L.user("2026-11-27T09:02:00.000Z", "And the default value?")
    # X4: one line.
    line("2026-11-27T09:02:03.000Z", mf.text("20% of requests, with a floor of 10 retries per second."),
         relay_u(20, 160, 3840, 40), stop="end_turn")


def case_d_advisor():
    cwd, folder = "/home/dev/advisor", "-home-dev-advisor"
    ver = "2.1.150"

    def msg_it(inp, cc, cr, out):
        return {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": cr,
                "cache_creation_input_tokens": cc,
                "cache_creation": {"ephemeral_5m_input_tokens": cc, "ephemeral_1h_input_tokens": 0}, "type": "message"}

    def plain(inp, cc, cr, out):
        return lambda o: u(inp, cc, cr, out, iterations=[msg_it(inp, cc, cr, out)])

    A = log(folder, SIDS["advisor"], cwd, ver, entrypoint="cli")
    A.user("2026-11-26T11:00:00.000Z", "Review the migration plan in docs/migrate.md and ask the advisor about the locking strategy")
    _, y1 = A.response(SONNET, [
        ("2026-11-26T11:00:04.000Z", mf.text("Reading the plan."), 140, None),
        ("2026-11-26T11:00:04.500Z", mf.tool_use(T["advRead"], "Read", {"file_path": "/home/dev/advisor/docs/migrate.md"}), 140, "tool_use"),
    ], plain(5, 3000, 6000, 140))
    A.result("2026-11-26T11:00:04.600Z", T["advRead"], "     1\t# Migration\n     2\tLock each table with LOCK TABLE ... IN ACCESS EXCLUSIVE MODE.",
             source_uuid=y1[-1]["uuid"])
    advisor = {"type": "advisor_message", "model": ADVISOR, "input_tokens": 1800, "output_tokens": 350,
               "cache_read_input_tokens": 4000, "cache_creation_input_tokens": 1200,
               "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 1200}}
    its = [msg_it(2, 800, 9000, 300), advisor, msg_it(0, 0, 0, 320)]
    A.response(SONNET, [
        ("2026-11-26T11:00:20.000Z", mf.thinking("Consult the advisor on table locks."), 620, None),
        ("2026-11-26T11:00:26.000Z", mf.text("The advisor recommends row-level locks with a short lock_timeout instead of ACCESS EXCLUSIVE table locks."), 620, "end_turn"),
    ], lambda o: u(2, 800, 9000, o, iterations=its))
    A.user("2026-11-26T11:02:00.000Z", "Apply the advisor's suggestion to docs/migrate.md")
    e = {"file_path": "/home/dev/advisor/docs/migrate.md", "old_string": "Lock each table with LOCK TABLE ... IN ACCESS EXCLUSIVE MODE.",
         "new_string": "Take row-level locks (SELECT ... FOR UPDATE) with lock_timeout = '2s'."}
    _, y3 = A.response(SONNET, [("2026-11-26T11:02:05.000Z", mf.tool_use(T["advEdit"], "Edit", e), 210, "tool_use")],
                       plain(1, 700, 9800, 210))
    A.result("2026-11-26T11:02:05.200Z", T["advEdit"], "The file /home/dev/advisor/docs/migrate.md has been updated successfully.",
             source_uuid=y3[-1]["uuid"])
    A.response(SONNET, [("2026-11-26T11:02:09.000Z", mf.text("Updated docs/migrate.md to row-level locks with a 2s lock_timeout."), 50, "end_turn")],
               plain(1, 300, 10500, 50))

    B = log(folder, SIDS["advisorUnpriced"], cwd, ver, entrypoint="cli")
    B.user("2026-11-26T15:00:00.000Z", "Should the cache layer use write-through or write-back? Ask the advisor.")
    its = [msg_it(3, 1600, 5000, 180),
           {"type": "advisor_message", "model": UNPRICED_ADVISOR, "input_tokens": 2500, "output_tokens": 300,
            "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0},
           msg_it(0, 0, 0, 220)]
    B.response(SONNET, [("2026-11-26T15:00:12.000Z", mf.text("Write-through: the advisor points out that write-back loses acknowledged writes on a crash."), 400, "end_turn")],
               lambda o: u(3, 1600, 5000, o, iterations=its))


def case_e_cache152():
    cwd, folder, sid = "/home/dev/cache152", "-home-dev-cache152", SIDS["cache152"]
    L = log(folder, sid, cwd, "2.1.152", entrypoint="cli")

    def v152(inp, cr, out, c5, c1, top_cc):
        it = {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": cr,
              "cache_creation_input_tokens": top_cc,
              "cache_creation": {"ephemeral_5m_input_tokens": c5, "ephemeral_1h_input_tokens": c1}, "type": "message"}
        return lambda o: u(inp, c5 + c1, cr, o, c5=c5, c1=c1, iterations=[it], top_cc=top_cc)

    L.user("2026-11-25T13:00:00.000Z", "Explain why the nightly job's cache misses")
    _, k1 = L.response(SONNET, [
        ("2026-11-25T13:00:04.000Z", mf.text("Counting the misses in the nightly log."), 95, None),
        ("2026-11-25T13:00:04.400Z", mf.tool_use(T["cacheBash"], "Bash", {"command": "grep -c MISS logs/nightly.log", "description": "Count cache misses"}), 95, "tool_use"),
    ], v152(3, 8000, 95, 1200, 3400, 0))
    L.result("2026-11-25T13:00:04.600Z", T["cacheBash"], "412", is_error=False, tur=mf.bash_ok("412"), source_uuid=k1[-1]["uuid"])
    L.response(SONNET, [("2026-11-25T13:00:09.000Z", mf.text("412 misses: the job's cache key includes the run timestamp, so no two runs share an entry."), 180, "end_turn")],
               v152(1, 12600, 180, 0, 600, 0))
    L.user("2026-11-25T13:02:00.000Z", "And the weekly job?")
    L.response(SONNET, [("2026-11-25T13:02:05.000Z", mf.text("The weekly job keys on the ISO week, so it hits."), 60, "end_turn")],
               v152(2, 13200, 60, 500, 0, 500))
    # A split that is present but all zero is not authoritative: the top-level 800 counts, as 5-minute.
    L.response(SONNET, [("2026-11-25T13:02:09.000Z", mf.text("Both keys are built in jobs/cachekey.go."), 40, "end_turn")],
               lambda o: u(1, 800, 13700, o, c5=0, c1=0))


def case_f_apierror():
    cwd, folder, sid = "/home/dev/apierror", "-home-dev-apierror", SIDS["apierror"]
    L = log(folder, sid, cwd, "2.1.119", entrypoint="cli")
    L.user("2026-11-24T17:00:00.000Z", "Why does TestRetry flake?")
    L.response(HAIKU, [("2026-11-24T17:00:05.000Z", mf.text("TestRetry depends on wall-clock sleeps; under load the 50ms window is missed. Use a fake clock."), 90, "end_turn")],
               lambda o: u(4, 1200, 3000, o))
    L.user("2026-11-24T17:01:00.000Z", "Switch it to the fake clock")
    L.assistant("2026-11-24T17:01:04.000Z", "<synthetic>", mf.new_uuid(),
                mf.text("API Error: 500 {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}"),
                {"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                 "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": None,
                 "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}},
                stop="stop_sequence", rid=None, extra={"error": "unknown", "isApiErrorMessage": True, "apiErrorStatus": 500})


def case_g_copied():
    cwd, folder, sid = "/home/dev/copied", "-home-dev-copied", SIDS["copied"]
    L = log(folder, sid, cwd, "2.1.90", entrypoint="cli")
    L.user("2026-04-30T09:00:00.000Z", "Build the docs site and check for broken links")
    _, g1 = L.response(SONNET, [("2026-04-30T09:00:04.000Z", mf.tool_use(T["copiedRead"], "Read", {"file_path": "/home/dev/copied/mkdocs.yml"}), 60, "tool_use")],
                       lambda o: u(3, 1600, 4000, o))
    L.result("2026-04-30T09:00:04.100Z", T["copiedRead"], "     1\tsite_name: copied docs\n     2\tstrict: true", source_uuid=g1[-1]["uuid"])
    L.response(SONNET, [
        ("2026-04-30T09:00:08.000Z", mf.text("Building with --strict so broken links fail the build."), 15, None),
        ("2026-04-30T09:00:08.400Z", mf.tool_use(T["copiedBash"], "Bash", {"command": "mkdocs build --strict", "description": "Build the docs"}), 110, "tool_use"),
    ], lambda o: u(1, 300, 5600, o))
    # no result: the file stops here


def main():
    for name in os.listdir(ROOT):
        if name.startswith("-home-dev-"):
            shutil.rmtree(os.path.join(ROOT, name))
    for fn in (case_a_workers, case_b_resumed, case_c_relay, case_d_advisor, case_e_cache152,
               case_f_apierror, case_g_copied):
        fn()
    for L in LOGS:
        L.write()
    for L in LOGS:
        print("%4d lines  %s" % (len(L.lines), os.path.relpath(L.path, HERE)))


if __name__ == "__main__":
    main()
