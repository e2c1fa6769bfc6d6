#!/usr/bin/env python3
"""Independent count of the public Codex corpus, from the raw lines, by the
rules of shared/docs/codex-format.md §7, §9 and §14. It shares no code with the
Go reader; EXPECTED.md records its output and codex/corpus_test.go asserts it.

    python3 codex/testdata/expected.py ../shared/corpus/public-codex
"""
import json, os, re, sys, collections

def outcome(name, out):
    """§7, rules 2-6, plus the user-declined form seen in public-codex #3."""
    if out is None:
        return 'none'
    if isinstance(out, list):
        text = '\n'.join(x.get('text', '') for x in out if isinstance(x, dict) and isinstance(x.get('text'), str))
    else:
        text = out
    if text.startswith('[{'):
        try:
            lst = json.loads(text)
            text = '\n'.join(x.get('text', '') for x in lst if isinstance(x, dict))
        except Exception:
            pass
    if text.startswith('{'):
        try:
            obj = json.loads(text)
            md = obj.get('metadata') if isinstance(obj, dict) else None
            if isinstance(md, dict) and isinstance(md.get('exit_code'), int):
                return 'ok' if md['exit_code'] == 0 else 'error'
        except Exception:
            pass
    if text.startswith('Script completed'):
        return 'ok'
    if text.startswith('Script failed') or text.startswith('Script terminated'):
        return 'error'
    if text.startswith('Script running with cell ID'):
        return 'running'
    low = text
    tail = low.rsplit('`:', 1)[-1]
    if low.startswith('exec command rejected by user') or (low.startswith('exec_command failed for') and 'Rejected(' in tail and 'rejected by user' in tail):
        return 'rejected'
    if low.startswith('aborted by user'):
        return 'rejected'
    for p in ('exec_command failed for', 'write_stdin failed:', 'apply_patch verification failed:',
              'execution error:', 'tool call error:', 'Error code:'):
        if low.startswith(p):
            return 'error'
    header = text.split('\nOutput:', 1)[0] if '\nOutput:' in text else text
    for line in reversed(header.split('\n')):
        m = re.fullmatch(r'Exit code: (-?\d+)', line) or re.fullmatch(r'Process exited with code (-?\d+)', line)
        if m:
            return 'ok' if int(m.group(1)) == 0 else 'error'
        if re.fullmatch(r'Process running with session ID \d+', line):
            return 'running'
        if line == 'aborted by user':
            return 'rejected'
    return 'ok'

FIELDS = ('input_tokens', 'cached_input_tokens', 'output_tokens', 'reasoning_output_tokens', 'total_tokens')

def count(path):
    lines = [json.loads(l) for l in open(path, encoding='utf-8') if l.strip()]
    first = lines[0]['payload']
    own = first['id']
    src = first.get('source')
    parent = first.get('forked_from_id')
    if not parent and isinstance(src, dict) and isinstance(src.get('subagent'), dict):
        parent = (src['subagent'].get('thread_spawn') or {}).get('parent_thread_id')
    in_prefix = [False] * len(lines)
    if parent:
        start = None
        for i, d in enumerate(lines[1:], 1):
            if d['type'] == 'session_meta' and d['payload'].get('id') == parent:
                start = i
                break
        if start is not None:
            i = start
            while i < len(lines):
                d = lines[i]
                p = d['payload']
                tid = p.get('turn_id') if isinstance(p, dict) else None
                if ((d['type'] == 'event_msg' and p.get('type') == 'task_started') or d['type'] == 'turn_context') and tid and tid > own:
                    break
                in_prefix[i] = True
                i += 1
    seen_totals = set()
    model = ''
    models = []
    tok = collections.Counter()
    by_model = collections.defaultdict(collections.Counter)
    responses = 0
    prompts = set()
    nprompts = 0
    calls = {}
    order = []
    for i, d in enumerate(lines):
        t, p = d['type'], d['payload']
        pre = in_prefix[i]
        if t == 'turn_context' and not pre:
            model = p.get('model') or ''
            if model and model not in models:
                models.append(model)
        if t == 'event_msg' and p.get('type') == 'token_count':
            info = p.get('info')
            if not info:
                continue
            tot = tuple(info['total_token_usage'].get(f, 0) for f in FIELDS)
            if all(v == 0 for v in tot):
                continue
            if tot in seen_totals:
                continue
            seen_totals.add(tot)
            if pre:
                continue
            last = info['last_token_usage']
            responses += 1
            for f in FIELDS:
                tok[f] += last.get(f, 0)
                by_model[model][f] += last.get(f, 0)
        if pre:
            continue
        if t == 'event_msg' and p.get('type') == 'user_message':
            k = (d['timestamp'], p.get('message'))
            if k not in prompts:
                prompts.add(k)
                nprompts += 1
        if t == 'response_item':
            it = p.get('type')
            if it in ('function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'):
                name = p.get('name') or ''
                if p.get('namespace'):
                    name = p['namespace'] + '.' + name
                if it == 'tool_search_call':
                    name = 'tool_search'
                if it == 'local_shell_call' and not name:
                    name = 'local_shell'
                calls[p['call_id']] = [name, None, it]
                order.append(p['call_id'])
            elif it == 'web_search_call':
                cid = 'ws%d' % i
                st = p.get('status')
                calls[cid] = ['web_search', 'ok' if st == 'completed' else 'error' if st == 'failed' else 'running', it]
                order.append(cid)
            elif it in ('function_call_output', 'custom_tool_call_output', 'local_shell_call_output'):
                c = calls.get(p.get('call_id'))
                if c:
                    c[1] = outcome(c[0], p.get('output'))
            elif it == 'tool_search_output':
                c = calls.get(p.get('call_id'))
                if c:
                    st = p.get('status')
                    c[1] = 'error' if st == 'failed' else 'ok'
    per_tool = collections.defaultdict(collections.Counter)
    for cid in order:
        name, oc, _ = calls[cid]
        per_tool[name][oc or 'none'] += 1
    return {
        'id': own, 'cwd': first.get('cwd'), 'cli_version': first.get('cli_version'),
        'originator': first.get('originator'), 'models': models, 'prompts': nprompts,
        'responses': responses, 'tokens': dict(tok),
        'by_model': {m: dict(c) for m, c in by_model.items()},
        'calls': {n: dict(c) for n, c in sorted(per_tool.items())},
        'prefix_lines': sum(in_prefix), 'lines': len(lines),
    }

if __name__ == '__main__':
    root = sys.argv[1]
    out = []
    for dp, _, fs in os.walk(root):
        for f in fs:
            if f.startswith('rollout-') and f.endswith('.jsonl'):
                out.append(os.path.join(dp, f))
    for p in sorted(out, key=os.path.basename):
        r = count(p)
        print(os.path.basename(p))
        print(json.dumps(r, ensure_ascii=False, sort_keys=True))
