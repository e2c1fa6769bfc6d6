package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"time"
)

// Round two (Options.Round2) adds sessions for the counting rules of SPEC §3
// that concern copies and second counts:
//
//   - special workers (acompact-*, aside_question-*, a fork worker whose
//     meta.json says "agentType": "fork") that begin with a verbatim copy of
//     the main file so far — same uuids, message ids, tool_use ids and
//     results — and then make calls of their own;
//   - resumed sessions that replay the whole conversation of an earlier one;
//   - relay sessions: every response has message.id "ocgo" and no
//     requestId, the responses told apart by their growing input side, with
//     all-zero proxy copies and split copies;
//   - responses whose usage.iterations hold an advisor_message on another
//     model (one advisor model is unpriced);
//   - Claude Code 2.1.152 lines: cache_creation_input_tokens 0 beside a
//     non-zero cache_creation split.
//
// The truth counts them by the SPEC rules: each response once (copies are
// written, never counted again), advisor usage added under its own model,
// each tool call once by id. The round-two sessions are planned from their
// own PCG stream and generated after every round-one session, and the
// round-one budget shrinks by their size, so without Round2 nothing changes.

const (
	relayID        = "ocgo"
	unpricedAdvice = "claude-advisor-preview"
)

var advisorModels = []string{"claude-opus-4-6", "claude-opus-4-6", "claude-opus-5-5", unpricedAdvice}

var workerKinds = []string{"acompact", "aside_question", "fork"}

// planRound2 plans the round-two sessions, indexed from n on, and returns
// them with the sum of their size targets.
func (g *gen) planRound2(n int, projects []*project) ([]*sessPlan, float64) {
	r := g.newRand(0x726f756e6432)
	scale := float64(g.opts.Size) / gib
	count := func(perGiB float64, least int) int {
		return max(least, int(math.Round(perGiB*scale)))
	}
	var out []*sessPlan
	add := func(e era, lo, hi float64) *sessPlan {
		p := &sessPlan{idx: n + len(out), replayFrom: -1, era: e}
		p.id = newUUID(r)
		p.proj = projects[r.IntN(len(posixRepos))]
		p.version = pick(r, eraVersions[e])
		p.model = pick(r, eraModels[e])
		p.target = int64(logUniform(r, lo, hi))
		out = append(out, p)
		return p
	}
	for i := range count(40, 3) {
		p := add(eraV21d, 60<<10, 300<<10)
		if i == 0 {
			p.workers = workerKinds // the smallest corpus has every kind in one session
		} else {
			p.workers = []string{pick(r, workerKinds)}
			if chance(r, 0.3) {
				p.workers = append(p.workers, pick(r, workerKinds))
			}
		}
	}
	for range count(15, 1) {
		src := add(pick(r, []era{eraV21b, eraV21c, eraV21d}), 40<<10, 250<<10)
		src.replaySrc, src.fullCopy = true, true
		dst := add(src.era, 40<<10, 250<<10)
		dst.replayFrom = src.idx
		dst.proj, dst.version, dst.model = src.proj, src.version, src.model
	}
	for range count(6, 2) {
		p := add(eraV21d, 40<<10, 600<<10)
		p.proxy, p.relay = true, true
		p.model = pick(r, []string{"claude-sonnet-4-6", "claude-opus-4-6"})
	}
	for i := range count(30, 2) {
		p := add(pick(r, []era{eraV21d, eraV21e}), 40<<10, 600<<10)
		p.advisor = pick(r, advisorModels)
		if i < 2 { // one priced advisor and one unpriced, always
			p.advisor = advisorModels[3*i]
		}
		p.nAgents = agentsByChance(r)
	}
	for range count(40, 1) {
		p := add(eraV21d, 40<<10, 600<<10)
		p.version, p.v152 = "2.1.152", true
		p.nAgents = agentsByChance(r)
	}

	windowStart := g.nowMs - 30*24*int64(time.Hour/time.Millisecond)
	var sum float64
	for _, p := range out {
		sum += float64(p.target)
		p.msPerB = logUniform(r, 0.004, 0.04)
		lo := float64(windowStart + 5*60*1000)
		hi := float64(g.liveCut-10*60*1000) - estDuration(p)
		switch {
		case p.replaySrc:
			hi = lo + (hi-lo)*0.4
		case p.replayFrom >= 0:
			lo = lo + (hi-lo)*0.55
		}
		p.startMs = int64(lo + r.Float64()*(max(hi, lo)-lo))
	}
	return out, sum
}

func agentsByChance(r *rand.Rand) int {
	if chance(r, 0.14) {
		return pick(r, []int{1, 1, 2})
	}
	return 0
}

// startRound2 prepares a round-two session once its main file is open.
func (s *sess) startRound2() {
	p, f := s.p, s.main.f
	if p.fullCopy {
		f.rec = s.rec
	}
	if len(p.workers) > 0 {
		f.prefix = &replayChunk{}
		for i := range p.workers {
			s.workerAt = append(s.workerAt, p.target*int64(i+1)/int64(len(p.workers)+1))
		}
	}
	if p.v152 && s.split == splitNone {
		s.split = split1h // 2.1.152 always writes the split
	}
}

// maybeWorkers starts the workers whose point in the session has come (all
// that are left when force is set).
func (s *sess) maybeWorkers(force bool) {
	for len(s.workerAt) > 0 && (force || s.progressBytes() >= s.workerAt[0]) {
		s.workerAt = s.workerAt[1:]
		s.specialWorker(s.p.workers[len(s.p.workers)-len(s.workerAt)-1])
	}
}

const compactPrompt = "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions. This summary should be thorough in capturing technical details, code patterns, and architectural decisions."

// specialWorker writes one worker file: the main file's conversation so far,
// copied verbatim, then the worker's own turn.
func (s *sess) specialWorker(kind string) {
	p, g, r := s.p, s.g, s.r
	var id string
	switch kind {
	case "acompact":
		id = "acompact-" + randHex(r, 6)
	case "aside_question":
		id = "aside_question-" + randHex(r, 16)
	default:
		id = "a" + randHex(r, 16)
	}
	rel := "projects/" + p.proj.folder + "/" + p.id + "/subagents/agent-" + id
	f := g.create(rel + ".jsonl")
	f.owner = &s.bytes
	if kind == "fork" {
		m := appendJSON([]byte(`{"agentType":"fork","description":`), "Fork: "+pick(r, titleVerbs)+" "+pick(r, identWords)+" handling")
		g.writeSidecar(rel+".meta.json", append(m, "}\n"...), s.clock)
	}
	at := &thread{s: s, f: f, sidechain: true, agentID: id, model: s.main.model, growing: growingSub(p.era)}
	at.setEnvelope()

	src := s.main.f
	var copied int64
	for i, line := range src.prefix.lines {
		if conversationLine(line) {
			f.put(sidechainCopy(line, id), src.prefix.ts[i])
			copied++
		}
	}
	f.calls += src.calls // every call of the main file so far, with its result
	f.results.add(src.results)
	at.parent = s.main.parent
	at.ctxTok = s.main.ctxTok
	at.added = 200
	never := func() bool { return false }
	switch kind {
	case "acompact":
		at.userLine(appendJSON(nil, compactPrompt), nil, s.tick(100, 1000))
		at.work(0, never)
	case "aside_question":
		q := string(take(r, g.pools.prose, rint(r, 30, 200))) + "?"
		at.userLine(appendJSON(nil, q), nil, s.tick(2000, 60000))
		at.work(rint(r, 1, 3), never)
	default: // a fork goes straight on from the copied conversation
		s.tick(500, 5000)
		at.work(rint(r, 1, 3), never)
	}
	f.close(s.clock)
	g.truth.SubagentFiles++
	g.truth.SubagentLayouts["worker_"+kind]++
	g.truth.Notes["worker_copied_lines"] += copied
	g.truth.Notes["worker_copied_calls"] += src.calls
}

// conversationLine reports whether a recorded main-file line is a user or
// assistant line, the lines a worker copies. Envelope lines start with
// parentUuid; a quote inside a JSON string is escaped, so the type markers
// below can only match the line's own structure.
func conversationLine(line []byte) bool {
	return bytes.HasPrefix(line, []byte(`{"parentUuid":`)) &&
		!bytes.Contains(line, []byte(`,"type":"progress","data":`)) &&
		!bytes.Contains(line, []byte(`,"type":"system",`)) &&
		!bytes.Contains(line, []byte(`,"type":"attachment"`))
}

// sidechainCopy is a main-file line as a worker holds it: the same line but
// for the envelope's isSidechain and agentId.
func sidechainCopy(line []byte, agentID string) []byte {
	return bytes.Replace(line, []byte(`"isSidechain":false`), []byte(`"isSidechain":true,"agentId":"`+agentID+`"`), 1)
}

// relayInput makes a relay response's input_tokens unique across the corpus:
// relays share one message.id, so two responses with the same input side
// would be one response under SPEC §3.
func (g *gen) relayInput(in int64) int64 {
	for g.relayIn[in] {
		in++
	}
	g.relayIn[in] = true
	return in
}

// advisorUsage draws the usage of an advisor_message iteration.
func (s *sess) advisorUsage() *usageT {
	r := s.r
	u := &usageT{in: int64(rint(r, 800, 6000)), cr: int64(rint(r, 0, 20000)), out: int64(rint(r, 100, 1500)), split: true}
	u.cc = int64(rint(r, 0, 2500))
	u.c5 = u.cc
	return u
}

// appendAdvisor writes an advisor_message iteration.
func appendAdvisor(b []byte, model string, u *usageT) []byte {
	b = append(b, `,{"type":"advisor_message","model":`...)
	b = appendJSON(b, model)
	b = append(b, ',')
	b = appendIterationTokens(b, *u, u.cc)
	b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
	b = appendInt(b, u.c5)
	b = append(b, `,"ephemeral_1h_input_tokens":`...)
	b = appendInt(b, u.c1)
	return append(b, "}}"...)
}
