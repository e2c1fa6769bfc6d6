#!/usr/bin/env python3
"""Verify every figure of EXPECTED.md against the fixture files.

An independent implementation of the counting rules of SPEC §3 and the
pricing of §5, written from the SPEC alone: it shares no code with the Go
reader nor with make.py. It reads the log root (this folder), computes each
session's figures and the whole root's, and compares them with the JSON
blocks of EXPECTED.md (each block lists the figures the prose above it works
out by hand). Every key an expected block names must be computed and equal.

Usage:  python3 testdata/replay/check.py      (exit 0: all figures agree)
        python3 testdata/replay/check.py -v   (also print the computed figures)
"""
import glob
import json
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# The clock every figure assumes, and the live window (SPEC §2 default).
NOW = datetime(2026, 11, 30, 12, 0, 0, tzinfo=timezone.utc)
LIVE_WINDOW = timedelta(minutes=10)
CLOCK_SLACK = timedelta(minutes=2)
# mtimes: every transcript's newest line timestamp (as the tests' fixture copy
# sets them), except the copied session, which the test gives a fresh mtime.
FRESH_MTIME = {"-home-dev-copied/2d7c5f08-b3a1-4c6e-8d94-5e0a7b1c3f62.jsonl": NOW - timedelta(minutes=1)}

FILE_TOOLS = {"Read": "read", "Edit": "edit", "MultiEdit": "edit", "NotebookEdit": "edit", "Write": "write"}
NOT_PROMPT_PREFIXES = ("<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-caveat>",
                       "Caveat: The messages below", "This session is being continued", "<system-reminder>",
                       "<task-notification>", "[Request interrupted by user", "<bash-input>", "<bash-stdout>")


def parse_ts(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def fmt_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


# --- pricing (SPEC §5) --------------------------------------------------------

PRICES = {k: v for k, v in json.load(open(os.path.join(REPO, "pricing.json"))).items() if isinstance(v, dict)}


def normalize(model):
    m = model.strip().lower()
    m = m.split("/")[-1].split("@")[0].split("[")[0]
    return re.sub(r"(?<=\d)\.(?=\d)", "-", m)


def price_entry(model):
    if model == "<synthetic>":
        return {}
    name = normalize(model)
    if name in PRICES:
        return PRICES[name]
    for i in range(len(name) - 1, 0, -1):
        if name[i] == "-" and name[:i] in PRICES:
            nxt = name[i + 1:].split("-")[0]
            if nxt.isdigit() and len(nxt) <= 2:
                return None  # an unknown minor version
            return PRICES[name[:i]]
    return None


def cost_micro(model, u):
    """Cost of one response in µ$ as an exact Fraction, or None when unpriced."""
    e = price_entry(model)
    if e is None:
        return None
    if not e:
        return Fraction(0)
    rates = e
    if "above_200k" in e and u["in"] + u["c5"] + u["c1"] + u["cr"] > 200000:
        rates = e["above_200k"]
    r = lambda k, dflt=None: Fraction(str(rates.get(k, rates.get(dflt) if dflt else 0)))
    return (u["in"] * r("input") + u["out"] * r("output") + u["c5"] * r("cache_write")
            + u["c1"] * r("cache_write_1h", "cache_write") + u["cr"] * r("cache_read"))


# --- usage (SPEC §3 "Entries and messages") -------------------------------------

def usage_of(raw):
    """The five token kinds of a usage object. A cache_creation split with a
    non-zero sum is authoritative; otherwise all cache creation is 5-minute."""
    raw = raw or {}
    n = lambda k: int(raw.get(k) or 0)
    split = raw.get("cache_creation") or {}
    s5, s1 = int(split.get("ephemeral_5m_input_tokens") or 0), int(split.get("ephemeral_1h_input_tokens") or 0)
    if s5 + s1 > 0:
        c5, c1 = s5, s1
    else:
        c5, c1 = n("cache_creation_input_tokens"), 0
    return {"in": n("input_tokens"), "out": n("output_tokens"), "c5": c5, "c1": c1, "cr": n("cache_read_input_tokens")}


def all_zero(raw):
    u = usage_of(raw)
    return not any(u.values()) and not int((raw or {}).get("cache_creation_input_tokens") or 0)


class Tally:
    def __init__(self):
        self.u = {"in": 0, "out": 0, "c5": 0, "c1": 0, "cr": 0}
        self.micro = Fraction(0)
        self.priced = self.unpriced = 0
        self.unpriced_models = set()

    def add(self, model, u):
        for k in self.u:
            self.u[k] += u[k]
        c = cost_micro(model, u)
        if c is None:
            self.unpriced += 1
            self.unpriced_models.add(model)
        else:
            self.priced += 1
            self.micro += c

    def merge(self, o):
        for k in self.u:
            self.u[k] += o.u[k]
        self.micro += o.micro
        self.priced += o.priced
        self.unpriced += o.unpriced
        self.unpriced_models |= o.unpriced_models

    def block(self):
        u = self.u
        status = "estimated"
        if self.unpriced:
            status = "partial" if self.priced else "unknown"
        return {"input_tokens": u["in"], "output_tokens": u["out"], "cache_creation_tokens": u["c5"] + u["c1"],
                "cache_creation_5m": u["c5"], "cache_creation_1h": u["c1"], "cache_read_tokens": u["cr"],
                "total_tokens": sum(u.values()), "cost": round(float(self.micro) / 1e6, 6), "cost_status": status}


# --- reading --------------------------------------------------------------------

class File:
    def __init__(self, path, session, sidechain_file):
        self.path = path
        self.rel = os.path.relpath(path, HERE)
        self.session = session
        self.sidechain_file = sidechain_file
        self.lines = []
        with open(path, encoding="utf-8") as f:
            for raw in f:
                if raw.strip():
                    self.lines.append(json.loads(raw))
        stamps = [parse_ts(l["timestamp"]) for l in self.lines if l.get("timestamp")]
        self.min_ts, self.max_ts = min(stamps), max(stamps)
        self.mtime = FRESH_MTIME.get(self.rel, self.max_ts)

    def side(self, line):
        return "sidechain" if self.sidechain_file or line.get("isSidechain") else "main"


def blocks(line):
    c = (line.get("message") or {}).get("content")
    return c if isinstance(c, list) else []


def responses_of(f):
    """Group a file's assistant lines into responses (SPEC §3 "What makes two
    lines copies of one response"). Returns a list of dicts."""
    al = [(i, l) for i, l in enumerate(f.lines) if l.get("type") == "assistant" and isinstance(l.get("message"), dict)]
    keys = {}
    for i, l in al:
        m = l["message"]
        mid, rid = m.get("id") or "", l.get("requestId") or ""
        if not mid:
            keys[i] = ("line", i)
        elif not all_zero(m.get("usage")):
            raw = m.get("usage") or {}
            keys[i] = (mid, rid, int(raw.get("input_tokens") or 0), int(raw.get("cache_creation_input_tokens") or 0),
                       int(raw.get("cache_read_input_tokens") or 0))
    for n, (i, l) in enumerate(al):
        if i in keys:
            continue
        mid = l["message"]["id"]
        later = [keys[j] for j, x in al[n + 1:] if x["message"].get("id") == mid and j in keys and keys[j][0] != "line"]
        earlier = [keys[j] for j, x in al[:n] if x["message"].get("id") == mid and j in keys and keys[j][0] != "line"]
        keys[i] = later[0] if later else (earlier[-1] if earlier else (mid, l.get("requestId") or "", 0, 0, 0))
    groups = {}
    for i, l in al:
        groups.setdefault(keys[i], []).append((i, l))
    out = []
    for key, copies in groups.items():
        win = None
        for i, l in copies:
            if win is None or int((l["message"].get("usage") or {}).get("output_tokens") or 0) >= \
                    int((win[1]["message"].get("usage") or {}).get("output_tokens") or 0):
                win = (i, l)
        wl = win[1]
        m = wl["message"]
        synthetic = m.get("model") == "<synthetic>" or bool(wl.get("isApiErrorMessage"))
        advisors = [it for it in ((m.get("usage") or {}).get("iterations") or [])
                    if isinstance(it, dict) and it.get("type") == "advisor_message"]
        out.append({"key": key, "file": f, "side": f.side(wl), "model": m.get("model") or "",
                    "usage": usage_of(m.get("usage")), "synthetic": synthetic, "advisors": advisors,
                    "first_line": min(i for i, _ in copies)})
    out.sort(key=lambda r: r["first_line"])
    return out


def calls_of(f):
    results = {}
    for l in f.lines:
        for b in blocks(l):
            if b.get("type") == "tool_result":
                results.setdefault(b.get("tool_use_id"), b)
    calls = []
    seen = set()
    for i, l in enumerate(f.lines):
        if l.get("type") != "assistant":
            continue
        for b in blocks(l):
            if b.get("type") == "tool_use" and b.get("id") and b["id"] not in seen:
                seen.add(b["id"])
                calls.append({"id": b["id"], "name": b.get("name"), "input": b.get("input") or {}, "file": f,
                              "side": f.side(l), "ts": l.get("timestamp"), "result": results.get(b["id"])})
    return calls


def result_text(b):
    c = b.get("content")
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "".join(x.get("text", "") for x in c if isinstance(x, dict))
    return ""


def outcome(call, live):
    b = call["result"]
    if b is None:
        return "in_progress" if live else "pending"
    if b.get("is_error") is not True:
        return "ok"
    t = result_text(b)
    if (t.startswith("The user doesn't want to proceed with this tool use") or t.startswith("The user doesn't want to take this action")
            or "[Request interrupted by user for tool use]" in t):
        return "rejected"
    return "error"


def prompt_text(l):
    """The human text of a user line, or None when it is not a prompt."""
    if l.get("type") != "user" or l.get("isMeta") or l.get("isCompactSummary"):
        return None
    c = (l.get("message") or {}).get("content")
    if isinstance(c, str):
        t = c
    elif isinstance(c, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in c):
            return None
        t = "\n".join(b.get("text", "") for b in c if isinstance(b, dict) and b.get("type") == "text")
    else:
        return None
    t = t.strip()
    if not t or t.startswith(NOT_PROMPT_PREFIXES):
        return None
    return t


class Session:
    def __init__(self, project, sid, main):
        self.project, self.id, self.main = project, sid, main
        self.subagents = []
        self.meta = {}

    @property
    def files(self):
        return [self.main] + self.subagents

    @property
    def start(self):
        return min(f.min_ts for f in self.files)

    @property
    def end(self):
        return max(f.max_ts for f in self.files)

    @property
    def live(self):
        newest_mtime = max(f.mtime for f in self.files)
        return NOW - newest_mtime <= LIVE_WINDOW and NOW - self.end <= LIVE_WINDOW + CLOCK_SLACK


def discover():
    sessions = []
    for proj in sorted(os.listdir(HERE)):
        pdir = os.path.join(HERE, proj)
        if not os.path.isdir(pdir):
            continue
        by_id = {}
        for p in sorted(glob.glob(os.path.join(pdir, "*.jsonl"))):
            stem = os.path.basename(p)[:-len(".jsonl")]
            if stem.startswith("agent-"):
                continue
            s = Session(proj, stem, None)
            s.main = File(p, s, False)
            by_id[stem] = s
            sessions.append(s)
        for p in sorted(glob.glob(os.path.join(pdir, "agent-*.jsonl"))):  # 2.0.x siblings
            f0 = File(p, None, True)
            s = by_id.get(next((l.get("sessionId") for l in f0.lines if l.get("sessionId")), None))
            if s:
                f0.session = s
                s.subagents.append(f0)
        for s in by_id.values():
            for p in sorted(glob.glob(os.path.join(pdir, s.id, "subagents", "**", "agent-*.jsonl"), recursive=True)):
                s.subagents.append(File(p, s, True))
                mp = p[:-len(".jsonl")] + ".meta.json"
                if os.path.exists(mp):
                    s.meta[os.path.basename(p)] = json.load(open(mp))
    return sessions


# --- the whole history ------------------------------------------------------------

def rank(f, side):
    """Where a copy first appeared: earlier session start, then smaller id,
    then main before sidechain, then file order."""
    s = f.session
    return (s.start, s.id, 0 if side == "main" else 1, 0 if f is s.main else 1, f.rel)


def compute():
    sessions = discover()
    files = [f for s in sessions for f in s.files]
    owner_resp = {}
    all_resps = {f: responses_of(f) for f in files}
    for f in files:
        for r in all_resps[f]:
            if r["synthetic"]:
                continue
            cur = owner_resp.get(r["key"])
            if cur is None or rank(f, r["side"]) < rank(cur["file"], cur["side"]):
                owner_resp[r["key"]] = r
    owner_call = {}
    for f in files:
        for c in calls_of(f):
            cur = owner_call.get(c["id"])
            if cur is None or rank(f, c["side"]) < rank(cur["file"], cur["side"]):
                owner_call[c["id"]] = c

    root_t, root_models, root_tools = Tally(), {}, {}
    api_errors_root = 0
    out = {}
    for s in sessions:
        live = s.live
        tot, side_t = Tally(), {"main": Tally(), "sidechain": Tally()}
        models, per_file = {}, {f: Tally() for f in s.files}
        for f in s.files:
            for r in all_resps[f]:
                if r["synthetic"] or owner_resp[r["key"]] is not r:
                    continue
                items = [(r["model"], r["usage"])] + [(a.get("model") or "", usage_of(a)) for a in r["advisors"]]
                for model, u in items:
                    for t in (tot, side_t[r["side"]], per_file[f], root_t):
                        t.add(model, u)
                    for d in (models, root_models):
                        d.setdefault(model, Tally()).add(model, u)
        api_errors = sum(1 for f in s.files for r in all_resps[f] if r["synthetic"])
        api_errors_root += api_errors

        zero = lambda: {"ok": 0, "error": 0, "rejected": 0, "pending": 0, "in_progress": 0, "total": 0}
        per_tool, totals, by_source = {}, zero(), {"main": zero(), "sidechain": zero()}
        failing, touches = [], []
        for c in owner_call.values():
            if c["file"].session is not s:
                continue
            o = outcome(c, live)
            for d in (per_tool.setdefault(c["name"], zero()), totals, by_source[c["side"]]):
                d[o] += 1
                d["total"] += 1
            root_tools[c["name"]] = root_tools.get(c["name"], 0) + 1
            if o in ("error", "rejected"):
                failing.append({"tool_use_id": c["id"], "tool_name": c["name"], "status": o, "source": c["side"], "timestamp": c["ts"]})
            if c["name"] in FILE_TOOLS and c["input"].get("file_path"):
                touches.append({"tool_use_id": c["id"], "tool_name": c["name"], "action": FILE_TOOLS[c["name"]],
                                "file_path": c["input"]["file_path"], "source": c["side"], "outcome": o, "timestamp": c["ts"]})

        main_lines = [l for l in s.main.lines if not l.get("isSidechain")]
        prompts = [p for p in (prompt_text(l) for l in main_lines) if p]
        main_resps = [r for r in all_resps[s.main] if r["side"] == "main"]
        last_assistant = [l for l in main_lines if l.get("type") == "assistant"]
        ended_on_api_error = bool(last_assistant) and (
            last_assistant[-1]["message"].get("model") == "<synthetic>" or bool(last_assistant[-1].get("isApiErrorMessage")))
        final_text = None
        for l in main_lines:
            m = l.get("message") or {}
            if l.get("type") == "assistant" and m.get("model") != "<synthetic>" and not l.get("isApiErrorMessage"):
                for b in blocks(l):
                    if b.get("type") == "text":
                        final_text = b.get("text")

        workers = {}
        main_uuids = {l.get("uuid") for l in s.main.lines if l.get("uuid")}
        for f in s.subagents:
            k = 0
            while k < len(f.lines) and f.lines[k].get("uuid") in main_uuids:
                k += 1
            own = [p for p in (prompt_text(l) for l in f.lines[k:]) if p]
            name = os.path.basename(f.path)
            fp = own[0] if own else (s.meta.get(name) or {}).get("description")
            workers[name] = {"first_prompt": fp, "copied_prefix_lines": k, "usage": per_file[f].block()}

        unpriced = sorted(tot.unpriced_models)
        fig = {
            "project": s.project,
            "usage": tot.block(), "main": side_t["main"].block(), "sidechain": side_t["sidechain"].block(),
            "by_model": {m: t.block() for m, t in sorted(models.items())},
            "unpriced_models": unpriced,
            "message_count": len(prompts) + len(main_resps),
            "subagent_count": len(s.subagents),
            "api_errors": api_errors,
            "start": fmt_ts(s.start), "end": fmt_ts(s.end),
            "first_prompt": prompts[0] if prompts else None,
            "last_prompts": prompts[-5:],
            "is_live": live,
            "tool_calls": {"per_tool": dict(sorted(per_tool.items())), "totals": totals, "by_source": by_source},
            "failing_calls": sorted(failing, key=lambda x: x["timestamp"]),
            "file_touches": sorted(touches, key=lambda x: x["timestamp"]),
            "workers": workers,
            "final_assistant_text": final_text,
            "ended_on_api_error": ended_on_api_error,
        }
        out[s.id] = fig
    root = {
        "sessions": len(sessions),
        "projects": len({s.project for s in sessions}),
        "subagent_files": sum(len(s.subagents) for s in sessions),
        "usage": root_t.block(),
        "by_model": {m: t.block() for m, t in sorted(root_models.items())},
        "unpriced_models": sorted(root_t.unpriced_models),
        "api_errors": api_errors_root,
        "top_tools": dict(sorted(root_tools.items(), key=lambda kv: (-kv[1], kv[0]))),
        "first_activity": fmt_ts(min(s.start for s in sessions)),
        "last_activity": fmt_ts(max(s.end for s in sessions)),
        "live_sessions": sorted(s.id for s in sessions if s.live),
    }
    return out, root


# --- comparison -------------------------------------------------------------------

def expected_blocks():
    text = open(os.path.join(HERE, "EXPECTED.md"), encoding="utf-8").read()
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", text, re.S)]


def compare(want, got, path, errs):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            errs.append("%s: expected an object, computed %r" % (path, got))
            return
        for k, v in want.items():
            if k not in got:
                errs.append("%s.%s: not computed" % (path, k))
            else:
                compare(v, got[k], path + "." + k, errs)
    elif isinstance(want, list):
        if not isinstance(got, list) or len(want) != len(got):
            errs.append("%s: expected %s, computed %s" % (path, json.dumps(want), json.dumps(got)))
            return
        for i, (w, g) in enumerate(zip(want, got)):
            compare(w, g, "%s[%d]" % (path, i), errs)
    elif want != got:
        errs.append("%s: expected %s, computed %s" % (path, json.dumps(want), json.dumps(got)))


def main():
    sessions, root = compute()
    if "-v" in sys.argv:
        print(json.dumps({"sessions": sessions, "root": root}, indent=1, ensure_ascii=False))
    errs, n = [], 0
    for b in expected_blocks():
        n += 1
        for sid, want in b.get("sessions", {}).items():
            if sid not in sessions:
                errs.append("session %s: not found" % sid)
            else:
                compare(want, sessions[sid], sid[:8], errs)
        if "root" in b:
            compare(b["root"], root, "root", errs)
    for e in errs:
        print("MISMATCH", e)
    print("%d expected blocks, %d sessions, %s" % (n, len(sessions), "all figures agree" if not errs else "%d mismatches" % len(errs)))
    return 1 if errs or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
