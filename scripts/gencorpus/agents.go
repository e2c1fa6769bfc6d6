package main

import "strconv"

// Subagents in the three layouts (SPEC §3 "Layout"): nested
// <sid>/subagents/agent-a<16hex>.jsonl (+ .meta.json from 2.1.70), legacy
// sibling agent-<8hex>.jsonl (2.0.x, linked by sessionId only) and inline
// isSidechain lines (1.0.x). Plus special workers: warm-up and acompact.

// runAgent runs the subagent of an Agent/Task call, then writes the parent's
// agent_progress echoes (never counted) and the tool_result whose
// toolUseResult repeats totalTokens and the last usage (never counted).
func (s *sess) runAgent(pt *thread, c *toolCall) {
	p, g, r := s.p, s.g, s.r
	var f *jfile
	var id, layout string
	switch p.era {
	case eraV1:
		layout, f = "inline", pt.f
	case eraV20:
		layout = "legacy"
		if p.version == "2.0.71" {
			id = "a" + randHex(r, 6)
		} else {
			id = randHex(r, 8)
		}
		f = g.create("projects/" + p.proj.folder + "/agent-" + id + ".jsonl")
		f.owner = &s.bytes
	default:
		layout = "nested"
		id = "a" + randHex(r, 16)
		dir := "projects/" + p.proj.folder + "/" + p.id + "/subagents/agent-" + id
		f = g.create(dir + ".jsonl")
		f.owner = &s.bytes
		if s.v.atLeast("2.1.70") {
			m := appendJSON([]byte(`{"agentType":`), c.agentType)
			m = append(m, `,"description":`...)
			m = appendJSON(m, c.description)
			m = append(m, "}\n"...)
			g.writeSidecar(dir+".meta.json", m, s.clock)
		}
	}
	model := p.model
	if c.agentType == "Explore" {
		model = modelHaiku
	}
	at := &thread{s: s, f: f, sidechain: true, agentID: id, model: model,
		growing: growingSub(p.era), explore: c.agentType == "Explore"}
	at.tur = layout != "nested" || chance(r, 0.1)
	at.embed = pt.progress
	at.setEnvelope()

	n := p.nAgents
	if n < 1 {
		n = 1
	}
	budget := int64(float64(p.target)*logUniform(r, 0.1, 0.35)) / int64(n)
	budget = min(max(budget, 4000), 8<<20)
	startBytes := f.n
	startTS := s.clock

	if !(layout == "legacy" && (p.version == "2.0.57" || p.version == "2.0.58")) {
		var content []byte
		if layout == "nested" {
			content = appendJSON([]byte(`[{"type":"text","text":`), c.prompt)
			content = append(content, `}]`...)
		} else {
			content = appendJSON(nil, c.prompt)
		}
		ts := s.tick(20, 300)
		uid := at.userLine(content, nil, ts)
		if at.embed {
			at.embeds = append(at.embeds, embed{ts: ts, uuid: uid, msg: []byte(c.prompt), user: true})
		}
	}
	at.added = int64(rint(r, 6000, 20000) + len(c.prompt)/4)
	at.work(60, func() bool { return f.n-startBytes >= budget })

	if layout == "inline" {
		g.truth.Notes["inline_sidechain_agents"]++
	} else {
		f.close(s.clock)
		g.truth.SubagentFiles++
		g.truth.SubagentLayouts[layout]++
	}

	// parent side: progress echoes, then the result
	if pt.progress {
		for _, e := range at.embeds {
			d := append(s.db[:0], `{"message":{"type":`...)
			if e.user {
				d = append(d, `"user","message":{"role":"user","content":[{"type":"text","text":`...)
				d = appendJSON(d, e.msg)
				d = append(d, `}]},"uuid":"`...)
				d = append(d, e.uuid...)
				d = append(d, `","timestamp":`...)
				d = appendTS(d, e.ts)
				d = append(d, '}')
			} else {
				d = append(d, `"assistant","timestamp":`...)
				d = appendTS(d, e.ts)
				d = append(d, `,"message":`...)
				d = append(d, e.msg...)
				d = append(d, `,"requestId":`...)
				d = appendJSON(d, e.req)
				d = append(d, `,"uuid":"`...)
				d = append(d, e.uuid...)
				d = append(d, `"}`...)
			}
			d = append(d, `,"normalizedMessages":[],"type":"agent_progress","prompt":`...)
			d = appendJSON(d, c.prompt)
			d = append(d, `,"agentId":`...)
			d = appendJSON(d, id)
			d = append(d, '}')
			s.db = d
			pt.progressLine(d, "agent_"+randB62(r, "msg_01", 22), c.id, e.ts+int64(rint(r, 1, 5)))
			g.truth.Notes["agent_progress_lines"]++
		}
	}

	final := at.finalText
	dur := s.clock - startTS
	lu := at.last
	total := lu.in + lu.cc + lu.cr + lu.out
	content := append(s.cb[:0], `[{"type":"text","text":`...)
	content = appendJSON(content, final)
	content = append(content, '}')
	if s.v.atLeast("2.1.63") {
		content = append(content, `,{"type":"text","text":`...)
		content = appendJSON(content, "agentId: "+id+" (for resuming to continue this agent's work if needed)\n<usage>total_tokens: "+
			strconv.FormatInt(total, 10)+"\ntool_uses: "+strconv.Itoa(at.tools)+"\nduration_ms: "+strconv.FormatInt(dur, 10)+"</usage>")
		content = append(content, '}')
	}
	content = append(content, ']')
	s.cb = content

	x := s.xb[:0]
	x = append(x, `,"toolUseResult":{"status":"completed","prompt":`...)
	x = appendJSON(x, c.prompt)
	if id != "" {
		x = append(x, `,"agentId":"`...)
		x = append(x, id...)
		x = append(x, '"')
	}
	x = append(x, `,"content":[{"type":"text","text":`...)
	x = appendJSON(x, final)
	x = append(x, `}],"totalDurationMs":`...)
	x = appendInt(x, dur)
	x = append(x, `,"totalTokens":`...)
	x = appendInt(x, total)
	x = append(x, `,"totalToolUseCount":`...)
	x = appendInt(x, int64(at.tools))
	x = append(x, `,"usage":`...)
	x = s.appendUsage(x, lu, false)
	if s.v.atLeast("2.1.63") {
		x = append(x, `,"agentType":`...)
		x = appendJSON(x, c.agentType)
	}
	x = append(x, '}')
	if s.v.atLeast("2.1.0") && c.assistantUUID != "" {
		x = append(x, `,"sourceToolAssistantUUID":"`...)
		x = append(x, c.assistantUUID...)
		x = append(x, '"')
	}
	s.xb = x
	g.truth.Notes["tool_use_results_with_usage"]++

	m := s.mb[:0]
	m = append(m, `[{"tool_use_id":"`...)
	m = append(m, c.id...)
	m = append(m, `","type":"tool_result","content":`...)
	m = append(m, content...)
	m = append(m, `}]`...)
	s.mb = m
	pt.userLine(m, x, s.tick(20, 400))
	pt.addContext(len(final) + 100)
	pt.f.results.OK++
	g.countCall(c.name, outOK)
}

// warmupAgent writes a 2.0.x warm-up agent: a reply to the hidden prompt
// "Warmup", referenced nowhere in the parent, whose tokens are real spend.
func (s *sess) warmupAgent() {
	p, g, r := s.p, s.g, s.r
	id := randHex(r, 8)
	f := g.create("projects/" + p.proj.folder + "/agent-" + id + ".jsonl")
	f.owner = &s.bytes
	at := &thread{s: s, f: f, sidechain: true, agentID: id, model: modelHaiku, growing: true}
	at.setEnvelope()
	at.userLine(appendJSON(nil, "Warmup"), nil, s.tick(50, 500))
	at.added = int64(rint(r, 9000, 14000))
	txt := "I'm ready to help you search and explore the codebase. What would you like me to find?"
	b := appendJSON([]byte(`{"type":"text","text":`), txt)
	b = append(b, '}')
	at.respond([]block{{json: b}}, "end_turn", int64(rint(r, 15, 40)))
	f.close(s.clock)
	g.truth.SubagentFiles++
	g.truth.SubagentLayouts["legacy_warmup"]++
}

// acompactWorker writes the compaction summariser's file (2.1.38–2.1.49):
// it starts by copying a parent line verbatim (same message.id, counted once,
// as main) and its own call is real spend.
func (s *sess) acompactWorker() {
	p, g, r := s.p, s.g, s.r
	s.didAcompact = true
	id := "acompact-" + randHex(r, 6)
	f := g.create("projects/" + p.proj.folder + "/" + p.id + "/subagents/agent-" + id + ".jsonl")
	f.owner = &s.bytes
	at := &thread{s: s, f: f, sidechain: true, agentID: id, model: s.main.model, growing: growingSub(p.era)}
	at.setEnvelope()
	at.parent = s.main.parent
	if len(s.lastTextLine) > 0 {
		f.put(s.lastTextLine, s.lastTextTS)
		g.truth.Notes["copied_parent_lines"]++
	}
	prompt := "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions. This summary should be thorough in capturing technical details, code patterns, and architectural decisions."
	at.userLine(appendJSON(nil, prompt), nil, s.tick(100, 1000))
	at.ctxTok = s.main.ctxTok
	at.added = 200
	txt := take(r, g.pools.prose, rint(r, 3000, 9000))
	b := appendJSON([]byte(`{"type":"text","text":`), txt)
	b = append(b, '}')
	at.respond([]block{{json: b}}, "end_turn", int64(len(txt)/4))
	f.close(s.clock)
	g.truth.SubagentFiles++
	g.truth.SubagentLayouts["acompact"]++
}
