#!/usr/bin/env python3
"""Recompute every figure of EXPECTED.md from the JSONL files alone.

Independent of make.py (which it never imports) and of the Go code: it reads
testdata/handoff/-home-dev-spacepilot/, derives the facts with plain Python, and
compares them with the JSON block at the end of EXPECTED.md; it also checks that
each token figure of that block appears in the prose tables above it.

    python3 testdata/handoff/check.py          # compare, exit 1 on a difference
    python3 testdata/handoff/check.py --print  # print the computed facts as JSON
    python3 testdata/handoff/check.py --update # rewrite the JSON block (then review the prose)
"""
import glob
import json
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.join(HERE, "-home-dev-spacepilot")
LA = ZoneInfo("America/Los_Angeles")
UTC = timezone.utc
FILE_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


def ts(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def load():
    sessions = {}
    for main in sorted(glob.glob(os.path.join(PROJECT, "*.jsonl"))):
        sid = os.path.basename(main)[:-len(".jsonl")]
        files = [("main", main, read(main))]
        for sub in sorted(glob.glob(os.path.join(PROJECT, sid, "subagents", "agent-*.jsonl"))):
            files.append(("sidechain", sub, read(sub)))
        sessions[sid] = files
    return sessions


# --- tool calls ---------------------------------------------------------------

def calls_of(lines, source):
    """Tool calls of one file in file order, each joined with its result."""
    results = {}
    for l in lines:
        if l.get("type") == "user" and isinstance(l["message"]["content"], list):
            for b in l["message"]["content"]:
                if b.get("type") == "tool_result":
                    results[b["tool_use_id"]] = (b, l["timestamp"])
    out = []
    for l in lines:
        if l.get("type") != "assistant":
            continue
        for b in l["message"]["content"]:
            if b.get("type") == "tool_use":
                r = results.get(b["id"])
                outcome = "pending" if r is None else ("error" if r[0].get("is_error") is True else "ok")
                out.append({"id": b["id"], "name": b["name"], "input": b["input"], "timestamp": l["timestamp"],
                            "outcome": outcome, "source": source,
                            "result": None if r is None else result_text(r[0])})
    return out


def result_text(block):
    c = block["content"]
    if isinstance(c, str):
        return c
    return "\n".join(x.get("text", "") for x in c if x.get("type") == "text")


def command(call):
    return call["input"].get("command", "") if call["name"] == "Bash" else None


def strip_cd(cmd):
    return re.sub(r"^\s*cd\s+\S+\s*(&&|;)\s*", "", cmd).strip()


def test_or_build(cmd):
    """The fixture's test and build commands, recognised with plain regexes."""
    c = strip_cd(cmd)
    if re.fullmatch(r"go test( \S+)+", c):
        return "test"
    if re.fullmatch(r"go build( \S+)+", c):
        return "build"
    return None


def target(call):
    if call["name"] == "Bash":
        return strip_cd(command(call))
    if call["name"] in FILE_TOOLS:
        return call["input"]["file_path"]
    return json.dumps(call["input"], sort_keys=True)


def commit_message(cmd):
    if not re.search(r"(^|&&|;)\s*git commit\b", cmd) or "--dry-run" in cmd:
        return None
    m = re.search(r"-m \"\$\(cat <<'EOF'\n(.*?)\nEOF\n\)\"", cmd, re.S)
    if m:
        return m.group(1).strip()
    m = re.search(r"-m \"([^\"]*)\"", cmd)
    return m.group(1).strip() if m else None


def is_push(cmd):
    return re.search(r"(^|&&|;)\s*git push\b", cmd) is not None and "--dry-run" not in cmd


def is_pr_create(cmd):
    return re.search(r"(^|&&|;)\s*gh pr create\b", cmd) is not None


def recoveries(main_calls):
    """A failing call followed later on the main thread by an ok call of the same
    tool on the same target; steps are the calls in between."""
    out = []
    for i, c in enumerate(main_calls):
        if c["outcome"] != "error":
            continue
        for j in range(i + 1, len(main_calls)):
            d = main_calls[j]
            if d["name"] == c["name"] and target(d) == target(c) and d["outcome"] == "ok":
                out.append({"failed_tool_use_id": c["id"], "recovered_tool_use_id": d["id"],
                            "tool_name": c["name"], "steps": j - i - 1})
                break
    return out


# --- usage --------------------------------------------------------------------

KINDS = ("input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens")


def tally(rows):
    t = dict.fromkeys(KINDS, 0)
    for u in rows:
        t["input_tokens"] += u.get("input_tokens", 0)
        t["output_tokens"] += u.get("output_tokens", 0)
        t["cache_creation_tokens"] += u.get("cache_creation_input_tokens", 0)
        t["cache_read_tokens"] += u.get("cache_read_input_tokens", 0)
    t["total_tokens"] = sum(t[k] for k in KINDS)
    return t


def responses(files, seen):
    """The winning copy of each response: per message.id the copy with the
    largest output_tokens (ties: the last one); <synthetic> lines skipped; a
    message id already counted elsewhere (seen) is not counted again."""
    out = []
    for source, _, lines in files:
        best, order = {}, []
        for l in lines:
            if l.get("type") != "assistant" or l["message"].get("model") == "<synthetic>" or l.get("isApiErrorMessage"):
                continue
            mid = l["message"]["id"]
            if mid not in best:
                order.append(mid)
                best[mid] = l
            elif l["message"]["usage"]["output_tokens"] >= best[mid]["message"]["usage"]["output_tokens"]:
                best[mid] = l
        for mid in order:
            if mid in seen:
                continue
            seen.add(mid)
            out.append((source, best[mid]))
    return out


# --- one session ----------------------------------------------------------------

def is_prompt(l):
    if l.get("type") != "user" or l.get("isMeta") or l.get("isSidechain"):
        return False
    c = l["message"]["content"]
    return isinstance(c, str) and not c.startswith("<") and not c.startswith("[Request interrupted")


def session_facts(sid, files, seen):
    main = files[0][2]
    stamps = [ts(l["timestamp"]) for _, _, lines in files for l in lines if "timestamp" in l]
    calls = [c for source, _, lines in files for c in calls_of(lines, source)]
    main_calls = [c for c in calls if c["source"] == "main"]
    f = {"start": iso(min(stamps)), "end": iso(max(stamps)),
         "duration_seconds": (max(stamps) - min(stamps)).total_seconds(),
         "utc_dates": sorted({t.date().isoformat() for t in stamps}),
         "la_dates": sorted({t.astimezone(LA).date().isoformat() for t in stamps}),
         "git_branch": next(l["gitBranch"] for l in main if "gitBranch" in l),
         "subagents": [os.path.relpath(p, HERE) for s, p, _ in files if s == "sidechain"]}
    prompts = [l["message"]["content"] for l in main if is_prompt(l)]
    f["first_prompt"], f["last_prompt"], f["prompts"] = prompts[0], prompts[-1], len(prompts)
    f["synthetic_replies"] = sum(1 for l in main if l.get("type") == "assistant" and l["message"]["model"] == "<synthetic>")
    texts = [b["text"] for l in main if l.get("type") == "assistant" and l["message"]["model"] != "<synthetic>"
             and not l.get("isSidechain") for b in l["message"]["content"] if b.get("type") == "text"]
    f["final_assistant_text"] = texts[-1]
    last_reply = [l for l in main if l.get("type") == "assistant"][-1]
    f["ended_on_api_error"] = bool(last_reply.get("isApiErrorMessage"))
    f["calls"] = {k: sum(1 for c in calls if c["outcome"] == k) for k in ("ok", "error", "pending")}
    f["calls"]["total"] = len(calls)

    files_changed = {}
    for c in calls:
        if c["name"] in FILE_TOOLS and c["outcome"] == "ok":
            fc = files_changed.setdefault(c["input"]["file_path"], {"path": c["input"]["file_path"], "edits": 0,
                                                                    "tools": [], "sources": [], "last": ""})
            fc["edits"] += 1
            fc["last"] = max(fc["last"], c["timestamp"])
            for k, v in (("tools", c["name"]), ("sources", c["source"])):
                if v not in fc[k]:
                    fc[k].append(v)
    f["files_changed"] = sorted(files_changed.values(), key=lambda x: x["path"])

    f["commits"], f["pushes"], f["prs"] = [], [], []
    for c in calls:
        cmd = command(c)
        if cmd is None or c["outcome"] != "ok":
            continue
        msg = commit_message(cmd)
        if msg is not None:
            f["commits"].append({"tool_use_id": c["id"], "timestamp": c["timestamp"], "message": msg})
        if is_push(cmd):
            f["pushes"].append({"tool_use_id": c["id"], "timestamp": c["timestamp"], "command": cmd})
        if is_pr_create(cmd):
            for url in re.findall(r"https://github\.com/\S+/pull/\d+", c["result"]):
                f["prs"].append({"url": url, "from": "gh pr create", "tool_use_id": c["id"], "timestamp": c["timestamp"]})
    for l in main:
        if l.get("type") == "pr-link":
            f["prs"].append({"url": l["prUrl"], "from": "pr-link", "timestamp": l["timestamp"]})

    tb = {}
    for c in calls:
        cmd = command(c)
        kind = cmd and test_or_build(cmd)
        if kind:
            tb[strip_cd(cmd)] = {"command": strip_cd(cmd), "kind": kind,
                                 "outcome": "passed" if c["outcome"] == "ok" else "failed",
                                 "tool_use_id": c["id"], "timestamp": c["timestamp"]}
    f["tests_and_builds"] = sorted(tb.values(), key=lambda x: x["command"])

    f["failing_calls"] = [{"tool_use_id": c["id"], "tool_name": c["name"], "timestamp": c["timestamp"],
                           "target": target(c), "source": c["source"]} for c in calls if c["outcome"] == "error"]
    f["recoveries"] = recoveries(main_calls)

    todo_calls = [c for c in main_calls if c["name"] == "TodoWrite"]
    f["open_todos"] = [{"content": t["content"], "status": t["status"]}
                       for t in todo_calls[-1]["input"]["todos"] if t["status"] != "completed"] if todo_calls else None
    f["task_list_tool_use_id"] = todo_calls[-1]["id"] if todo_calls else None

    outcomes = []
    if f["files_changed"]:
        outcomes.append("files_changed")
    if f["commits"]:
        outcomes.append("commit_observed")
    if f["pushes"]:
        outcomes.append("pushed")
    if f["prs"]:
        outcomes.append("pr_opened")
    for kind, ok_, bad in (("test", "tests_passed", "tests_failed"), ("build", "build_passed", "build_failed")):
        runs = [c for c in calls if command(c) and test_or_build(command(c)) == kind]
        if runs:
            last = max(runs, key=lambda c: c["timestamp"])
            outcomes.append(ok_ if last["outcome"] == "ok" else bad)
    last_call = max(calls, key=lambda c: c["timestamp"])
    if f["ended_on_api_error"] or (last_call["outcome"] == "error" and last_call["timestamp"] == max(
            l["timestamp"] for l in main if l.get("type") == "assistant")):
        outcomes.append("ended_on_error")
    f["outcomes"] = outcomes

    rs = responses(files, seen)
    f["responses"] = {"main": sum(1 for s, _ in rs if s == "main"), "sidechain": sum(1 for s, _ in rs if s == "sidechain")}
    f["models"] = sorted({l["message"]["model"] for _, l in rs})
    f["usage"] = {"main": tally(l["message"]["usage"] for s, l in rs if s == "main"),
                  "sidechain": tally(l["message"]["usage"] for s, l in rs if s == "sidechain"),
                  "total": tally(l["message"]["usage"] for _, l in rs)}
    f["naive_line_sum_total_tokens"] = tally(l["message"]["usage"] for _, _, lines in files for l in lines
                                             if l.get("type") == "assistant")["total_tokens"]
    f["_calls"] = calls
    f["_responses"] = rs
    return f


# --- merged over a set of sessions ------------------------------------------------

def merged(facts, sids, lo=None, hi=None):
    """The merged lists of summarize_work over sessions sids. With lo/hi only the
    calls, pr-link lines and responses inside [lo, hi) count (the stricter
    reading); without, every call of the sessions counts (the session-level one)."""
    def inside(t):
        t = ts(t)
        return (lo is None or t >= lo) and (hi is None or t < hi)

    sids = sorted(sids, key=lambda s: facts[s]["start"])
    calls = [dict(c, session_id=s) for s in sids for c in facts[s]["_calls"] if inside(c["timestamp"])]
    m = {"sessions": sids}
    files = {}
    for c in calls:
        if c["name"] in FILE_TOOLS and c["outcome"] == "ok":
            x = files.setdefault(c["input"]["file_path"], {"path": c["input"]["file_path"], "edits": 0, "sessions": [], "last": ""})
            x["edits"] += 1
            if c["session_id"] not in x["sessions"]:
                x["sessions"].append(c["session_id"])
            x["last"] = max(x["last"], c["timestamp"])
    m["files_changed"] = sorted(files.values(), key=lambda x: x["last"], reverse=True)
    m["commits"] = [dict(c, session_id=s) for s in sids for c in facts[s]["commits"] if inside(c["timestamp"])]
    m["pushes"] = [{"session_id": s, "tool_use_id": p["tool_use_id"], "timestamp": p["timestamp"]}
                   for s in sids for p in facts[s]["pushes"] if inside(p["timestamp"])]
    prs = sorted({(p["url"], s) for s in sids for p in facts[s]["prs"] if inside(p["timestamp"])})
    m["prs"] = [{"url": u, "session_id": s} for u, s in prs]
    tb = {}
    for c in calls:
        cmd = command(c)
        kind = cmd and test_or_build(cmd)
        if kind and (strip_cd(cmd) not in tb or c["timestamp"] > tb[strip_cd(cmd)]["timestamp"]):
            tb[strip_cd(cmd)] = {"command": strip_cd(cmd), "kind": kind,
                                 "outcome": "passed" if c["outcome"] == "ok" else "failed",
                                 "tool_use_id": c["id"], "timestamp": c["timestamp"], "session_id": c["session_id"]}
    m["tests_and_builds"] = sorted(tb.values(), key=lambda x: x["command"])
    m["recoveries"] = [dict(r, session_id=s) for s in sids
                       for r in recoveries([c for c in calls if c["session_id"] == s and c["source"] == "main"])]
    unresolved = []
    for c in calls:
        if c["outcome"] != "error":
            continue
        fixed = any(d["name"] == c["name"] and target(d) == target(c) and d["outcome"] == "ok"
                    and d["timestamp"] > c["timestamp"] for d in calls)
        if not fixed:
            unresolved.append({"session_id": c["session_id"], "tool_use_id": c["id"], "tool_name": c["name"],
                               "timestamp": c["timestamp"], "target": target(c)})
    m["unresolved_failures"] = sorted(unresolved, key=lambda x: x["timestamp"], reverse=True)
    lists = [c for c in calls if c["name"] == "TodoWrite" and c["source"] == "main"]
    if lists:
        newest = max(lists, key=lambda c: c["timestamp"])
        m["open_todos"] = {"session_id": newest["session_id"], "tool_use_id": newest["id"],
                           "items": [{"content": t["content"], "status": t["status"]}
                                     for t in newest["input"]["todos"] if t["status"] != "completed"]}
    else:
        m["open_todos"] = None
    m["usage"] = tally(l["message"]["usage"] for s in sids for _, l in facts[s]["_responses"] if inside(l["timestamp"]))
    return m


def compact(m):
    """A window's merged lists, by ids, for the windows table."""
    return {"files_changed": [[f["path"].rsplit("/", 1)[-1], f["edits"]] for f in m["files_changed"]],
            "commits": [c["tool_use_id"] for c in m["commits"]],
            "pushes": [p["tool_use_id"] for p in m["pushes"]],
            "prs": [p["url"] for p in m["prs"]],
            "tests_and_builds": [[t["command"], t["outcome"], t["tool_use_id"]] for t in m["tests_and_builds"]],
            "recoveries": [[r["failed_tool_use_id"], r["recovered_tool_use_id"], r["steps"]] for r in m["recoveries"]],
            "unresolved_failures": [u["tool_use_id"] for u in m["unresolved_failures"]],
            "open_todos_from": m["open_todos"]["session_id"] if m["open_todos"] else None,
            "total_tokens": m["usage"]["total_tokens"]}


# --- windows ----------------------------------------------------------------------

def day_start(t, zone):
    d = t.astimezone(zone)
    return datetime(d.year, d.month, d.day, tzinfo=zone).astimezone(UTC)


def window(name, zone_name, now, since, until):
    """since/until: 'today', 'yesterday', a date (whole day in zone), an RFC 3339
    time, or a duration like '24h'; until is exclusive for times and inclusive for dates."""
    zone = UTC if zone_name == "UTC" else ZoneInfo(zone_name)
    now = ts(now)

    def bound(v, is_until):
        if v is None:
            return None
        if v in ("today", "yesterday") or re.fullmatch(r"\d{4}-\d\d-\d\d", v):
            if v == "today":
                start = day_start(now, zone)
            elif v == "yesterday":
                start = day_start(day_start(now, zone) - timedelta(hours=1), zone)
            else:
                y, mo, d = map(int, v.split("-"))
                start = datetime(y, mo, d, tzinfo=zone).astimezone(UTC)
            if is_until:
                nxt = (start.astimezone(zone) + timedelta(days=1, hours=3)).date()
                return datetime(nxt.year, nxt.month, nxt.day, tzinfo=zone).astimezone(UTC)
            return start
        m = re.fullmatch(r"(\d+)([hd])", v)
        if m:
            return now - timedelta(hours=int(m.group(1)) * (24 if m.group(2) == "d" else 1))
        return ts(v.replace("Z", ".000Z") if "." not in v else v)

    return {"name": name, "zone": zone_name, "now": iso(now), "since_arg": since, "until_arg": until,
            "since": iso(bound(since, False)) if since else None,
            "until": iso(bound(until, True)) if until else None}


WINDOWS = [
    # Clock A: 2026-11-28T23:30:00Z = 15:30 in Los Angeles on 11-28.
    ("A today", "UTC", "2026-11-28T23:30:00.000Z", "today", "today"),
    ("A yesterday", "UTC", "2026-11-28T23:30:00.000Z", "yesterday", "yesterday"),
    ("A today", "America/Los_Angeles", "2026-11-28T23:30:00.000Z", "today", "today"),
    ("A yesterday", "America/Los_Angeles", "2026-11-28T23:30:00.000Z", "yesterday", "yesterday"),
    ("A since=24h", "UTC", "2026-11-28T23:30:00.000Z", "24h", None),
    # Clock B: 2026-11-29T18:00:00Z = 10:00 in Los Angeles on 11-29.
    ("B today", "UTC", "2026-11-29T18:00:00.000Z", "today", "today"),
    ("B yesterday", "UTC", "2026-11-29T18:00:00.000Z", "yesterday", "yesterday"),
    ("B today", "America/Los_Angeles", "2026-11-29T18:00:00.000Z", "today", "today"),
    ("B yesterday", "America/Los_Angeles", "2026-11-29T18:00:00.000Z", "yesterday", "yesterday"),
    ("B since=24h", "UTC", "2026-11-29T18:00:00.000Z", "24h", None),
    # Custom ranges (the clock does not matter).
    ("date 2026-11-27", "UTC", "2026-11-29T18:00:00.000Z", "2026-11-27", "2026-11-27"),
    ("date 2026-11-27", "America/Los_Angeles", "2026-11-29T18:00:00.000Z", "2026-11-27", "2026-11-27"),
    ("07:45-08:00Z", "UTC", "2026-11-29T18:00:00.000Z", "2026-11-28T07:45:00Z", "2026-11-28T08:00:00Z"),
    ("gap 20:10-07:30Z", "UTC", "2026-11-29T18:00:00.000Z", "2026-11-27T20:10:00Z", "2026-11-28T07:30:00Z"),
]


def compute():
    sessions = load()
    seen = set()
    order = sorted(sessions, key=lambda s: min(l["timestamp"] for _, _, ls in sessions[s] for l in ls if "timestamp" in l))
    facts = {s: session_facts(s, sessions[s], seen) for s in order}
    out = {"sessions": {}, "merged_all": merged(facts, order), "windows": []}
    for s in order:
        out["sessions"][s] = {k: v for k, v in facts[s].items() if not k.startswith("_")}
    # USD per million tokens: input, output, 5-minute cache write, cache read.
    rates = {"claude-opus-4-5-20251101": (5, 25, 6.25, 0.5), "claude-sonnet-4-5-20250929": (3, 15, 3.75, 0.3)}

    def cost(rs):
        micro = sum(l["message"]["usage"]["input_tokens"] * rates[l["message"]["model"]][0]
                    + l["message"]["usage"]["output_tokens"] * rates[l["message"]["model"]][1]
                    + l["message"]["usage"]["cache_creation_input_tokens"] * rates[l["message"]["model"]][2]
                    + l["message"]["usage"]["cache_read_input_tokens"] * rates[l["message"]["model"]][3] for _, l in rs)
        return round(micro / 1e6, 6)
    out["cost_usd"] = {s: cost(facts[s]["_responses"]) for s in order}
    out["cost_usd"]["all"] = cost([r for s in order for r in facts[s]["_responses"]])
    models = sorted({l["message"]["model"] for s in order for _, l in facts[s]["_responses"]})
    out["by_model"] = {m: tally(l["message"]["usage"] for s in order for _, l in facts[s]["_responses"]
                                if l["message"]["model"] == m) for m in models}
    # S2's tokens split at Los Angeles midnight (usage lands on its own response's day).
    s2 = "7d1f4b2a-9c3e-4f58-8a6b-0e2c4d6f8a25"
    cut = "2026-11-28T08:00:00.000Z"
    out["s2_split_at_la_midnight"] = {
        "before": tally(l["message"]["usage"] for _, l in facts[s2]["_responses"] if l["timestamp"] < cut),
        "after": tally(l["message"]["usage"] for _, l in facts[s2]["_responses"] if l["timestamp"] >= cut)}
    for w in WINDOWS:
        win = window(*w)
        lo = ts(win["since"]) if win["since"] else None
        hi = ts(win["until"]) if win["until"] else None
        overlap = [s for s in order if (hi is None or ts(facts[s]["start"]) < hi) and (lo is None or ts(facts[s]["end"]) >= lo)]
        with_line = [s for s in order if any((lo is None or ts(l["timestamp"]) >= lo) and (hi is None or ts(l["timestamp"]) < hi)
                                             for _, _, ls in sessions[s] for l in ls if "timestamp" in l)]
        assert overlap == with_line, (w, overlap, with_line)  # both readings of "active in the window" agree here
        win["sessions"] = overlap
        if overlap:
            win["whole_sessions"] = compact(merged(facts, overlap))
            win["in_window_only"] = compact(merged(facts, overlap, lo, hi))
        out["windows"].append(win)
    return out


def expected_block():
    with open(os.path.join(HERE, "EXPECTED.md"), encoding="utf-8") as f:
        md = f.read()
    m = re.search(r"```json\n(.*?)\n```\s*$", md, re.S)
    if not m:
        sys.exit("EXPECTED.md: no JSON block at the end")
    return md[:m.start()], json.loads(m.group(1))


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield "%s.%s: only in %s" % (path, k, "computed" if k in a else "EXPECTED.md")
            else:
                yield from diff(a[k], b[k], path + "." + k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from diff(x, y, "%s[%d]" % (path, i))
    elif a != b:
        yield "%s: computed %r, EXPECTED.md %r" % (path, a, b)


def layout(v, depth=0):
    """JSON with one key per line for the outer levels and short values inline."""
    flat = json.dumps(v, ensure_ascii=False)
    if depth >= 3 or len(flat) <= 100 or not isinstance(v, (dict, list)):
        return flat
    pad = " " * (depth + 1)
    if isinstance(v, dict):
        items = ["%s%s: %s" % (pad, json.dumps(k), layout(x, depth + 1)) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    return "[\n" + ",\n".join(pad + layout(x, depth + 1) for x in v) + "\n" + " " * depth + "]"


def main():
    got = compute()
    if "--print" in sys.argv:
        print(layout(got))
        return
    prose, want = expected_block()
    if "--update" in sys.argv:  # after a deliberate fixture change: rewrite the block, then review the prose
        with open(os.path.join(HERE, "EXPECTED.md"), "w", encoding="utf-8") as f:
            f.write(prose + "```json\n" + layout(got) + "\n```\n")
        want = got
    problems = list(diff(got, want))
    # Every token figure of the block is also written in the prose tables.
    for sid, s in got["sessions"].items():
        for side in ("main", "sidechain", "total"):
            for k, v in s["usage"][side].items():
                if v and "{:,}".format(v) not in prose:
                    problems.append("prose: %s %s %s = %s not written" % (sid[:8], side, k, "{:,}".format(v)))
    for k, v in list(got["merged_all"]["usage"].items()) + [(m, u["total_tokens"]) for m, u in got["by_model"].items()]:
        if "{:,}".format(v) not in prose:
            problems.append("prose: merged %s = %s not written" % (k, "{:,}".format(v)))
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print("check.py: every figure of EXPECTED.md matches the JSONL (%d sessions, %d windows)"
          % (len(got["sessions"]), len(got["windows"])))


if __name__ == "__main__":
    main()
