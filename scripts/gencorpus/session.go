package main

import (
	"bytes"
	"math/rand/v2"
)

// One session: its main file, its subagent files and sidecars, written in
// time order by a single PCG stream.

type splitMode int

const (
	splitNone splitMode = iota // no cache_creation object: all 5-minute
	split5m
	split1h
	splitMixed
)

// replayChunk is a run of whole turns of a session, copied verbatim (with the
// sessionId rewritten) into a later session of the same project.
type replayChunk struct {
	srcID    string
	lines    [][]byte
	ts       []int64
	lastUUID string
	ctxTok   int64
	calls    int64
	results  ToolCalls
	srcEnd   int64
	base     ToolCalls
	baseCall int64
}

type sess struct {
	g     *gen
	p     *sessPlan
	r     *rand.Rand
	v     version
	clock int64
	bytes int64 // every file of the session

	main                  *thread
	cwd, branch, slug     string
	entry                 string
	split                 splitMode
	thinking, emptyThink  bool
	agentAt               []int64
	turn                  int
	edited                []string
	lastTextLine          []byte
	lastTextTS            int64
	imageInPrompt         bool
	compacted             bool
	firstDone             bool // the main thread has sent its first tool round
	didAcompact, didImage bool
	didPersist, didSynth  bool
	didReject             bool
	rec                   *replayChunk
	clamped               int64
	workerAt              []int64 // round two: progress points of the workers still to come
	adv                   *usageT // round two: the advisor iteration of the response being written
	didAdvisor            bool

	// scratch buffers, reused line after line
	lb, cb, xb, mb, ib, db, nb, pb []byte
	tsBuf                          []int64
}

func newSess(g *gen, p *sessPlan) *sess {
	return &sess{g: g, p: p, r: g.newRand(uint64(p.idx) + 1), v: parseVersion(p.version), clock: p.startMs}
}

func growingMain(e era) bool { return e == eraV20 || e == eraV21b || e == eraV21c }
func growingSub(e era) bool  { return growingMain(e) || e == eraV21d }

func nextMidnight(ms int64) int64 { return (ms/86400000 + 1) * 86400000 }

func (s *sess) setClock(ms int64) {
	if ms > s.g.liveCut {
		ms = s.g.liveCut
		s.clamped++
	}
	if ms > s.clock {
		s.clock = ms
	}
}

func (s *sess) tick(lo, hi int) int64 {
	s.setClock(s.clock + int64(rint(s.r, lo, hi)))
	return s.clock
}

// spend advances the clock in proportion to bytes written.
func (s *sess) spend(n int) {
	if n > 20000 {
		n = 20000
	}
	s.setClock(s.clock + int64(float64(n)*s.p.msPerB))
}

func (s *sess) full() bool {
	if s.p.mainMin {
		return s.main.f.n >= s.p.target
	}
	return s.bytes >= s.p.target
}

func (s *sess) progressBytes() int64 {
	if s.p.mainMin {
		return s.main.f.n
	}
	return s.bytes
}

var slugWords = [][]string{
	{"bubbly", "dreamy", "linear", "vivid", "polymorphic", "quiet", "swift", "gentle", "cosmic", "rusty"},
	{"bubbling", "dancing", "cuddling", "finding", "sleeping", "jumping", "humming", "drifting"},
	{"candy", "clarke", "newt", "crayon", "wozniak", "otter", "lamport", "hopper", "falcon", "maple"},
}

func (s *sess) run() error {
	p, g, r := s.p, s.g, s.r
	s.cwd = p.proj.cwd
	s.branch = pick(r, p.proj.branch)
	if s.v.atLeast("2.0.56") {
		s.slug = pick(r, slugWords[0]) + "-" + pick(r, slugWords[1]) + "-" + pick(r, slugWords[2])
	}
	s.entry = "cli"
	if chance(r, 0.1) {
		s.entry = "claude-vscode"
	}
	switch {
	case p.era == eraV1 || chance(r, 0.1):
		s.split = splitNone
	case p.era >= eraV21b && chance(r, 0.8):
		s.split = split1h
	case chance(r, 0.6):
		s.split = split5m
	default:
		s.split = splitMixed
	}
	s.thinking = p.era != eraV1 && chance(r, 0.65)
	s.emptyThink = s.v.atLeast("2.1.87")
	s.imageInPrompt = chance(r, 0.5)

	var chunk *replayChunk
	if p.replayFrom >= 0 {
		chunk = g.chunks[p.replayFrom]
		delete(g.chunks, p.replayFrom)
		if chunk != nil {
			st := chunk.srcEnd + int64(logUniform(r, 10*60e3, 36*3600e3))
			if lim := g.liveCut - int64(estDuration(p)); st > lim {
				st = max(chunk.srcEnd+10*60000, lim)
			}
			s.clock = max(s.clock, st)
		}
	}

	f := g.create("projects/" + p.proj.folder + "/" + p.id + ".jsonl")
	f.owner = &s.bytes
	g.truth.Sessions++
	t := &thread{s: s, f: f, model: p.model, isMain: true, growing: growingMain(p.era), tur: true}
	t.progress = s.v.atLeast("2.1.12") && s.v.atMost("2.1.81")
	t.setEnvelope()
	t.added = int64(rint(r, 6000, 20000)) // system prompt and tool definitions
	s.main = t

	if p.tiny != notTiny {
		s.tiny()
		f.close(p.startMs)
		return g.err
	}

	if s.v.atLeast("2.1.81") {
		b := append(s.lb[:0], `{"type":"permission-mode","permissionMode":"default","sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, "\"}\n"...)
		s.lb = b
		t.plain(b, 0)
	}
	if s.v.atLeast("2.0.0") && s.v.atMost("2.1.27") && (chunk != nil || chance(r, 0.3)) {
		leaf := g.projLeaf[p.proj.folder]
		if chunk != nil {
			leaf = chunk.lastUUID
		}
		if leaf == "" {
			leaf = newUUID(r)
		}
		s.summaryLine(leaf)
	}
	if chunk != nil {
		s.replay(chunk)
	}
	if p.warmup {
		s.warmupAgent()
	}
	if p.replaySrc {
		s.rec = &replayChunk{srcID: p.id}
	}
	s.startRound2()
	for i := 0; i < p.nAgents; i++ {
		s.agentAt = append(s.agentAt, p.target*int64(2*i+1)/int64(2*p.nAgents))
	}

	for !s.full() {
		s.oneTurn()
		s.maybeWorkers(false)
	}
	for tries := 0; len(s.agentAt) > 0 && tries < 10; tries++ {
		s.oneTurn()
	}
	s.maybeWorkers(true)
	if s.rec != nil && s.turn < 2 || p.synthetic && !s.didSynth {
		s.oneTurn() // a replay source needs a second turn; a forced API error its turn
	}
	s.stopRecording()
	if p.pendingEnd {
		s.danglingCall()
	}
	f.close(p.startMs)
	if s.rec != nil {
		s.rec.srcEnd = s.clock
		g.chunks[p.idx] = s.rec
	}
	g.projLeaf[p.proj.folder] = t.parent
	g.truth.Notes["clamped_timestamps"] += s.clamped
	return g.err
}

func (s *sess) stopRecording() {
	f := s.main.f
	if f.rec == nil {
		return
	}
	c := f.rec
	c.lastUUID = s.main.parent
	c.ctxTok = s.main.ctxTok
	c.calls = f.calls - c.baseCall
	c.results = ToolCalls{
		OK:       f.results.OK - c.base.OK,
		Error:    f.results.Error - c.base.Error,
		Rejected: f.results.Rejected - c.base.Rejected,
	}
	f.rec = nil
}

func (s *sess) replay(c *replayChunk) {
	t := s.main
	old, nw := []byte(c.srcID), []byte(s.p.id)
	for i, line := range c.lines {
		t.f.put(bytes.ReplaceAll(line, old, nw), c.ts[i])
	}
	t.parent = c.lastUUID
	t.ctxTok = c.ctxTok
	t.f.calls += c.calls
	t.f.results.add(c.results)
	s.g.truth.Notes["replayed_sessions"]++
	s.g.truth.Notes["replayed_lines"] += int64(len(c.lines))
}

func (s *sess) summaryLine(leaf string) {
	b := append(s.lb[:0], `{"type":"summary","summary":`...)
	b = appendJSON(b, s.title())
	b = append(b, `,"leafUuid":"`...)
	b = append(b, leaf...)
	b = append(b, "\"}\n"...)
	s.lb = b
	s.main.plain(b, 0)
}

var titleVerbs = []string{"Fix", "Add", "Refactor", "Debug", "Investigate", "Speed up", "Document", "Migrate", "Clean up", "Test"}

func (s *sess) title() string {
	w := pick(s.r, identWords)
	return pick(s.r, titleVerbs) + " " + w + " " + pick(s.r, identWords) + " handling in " + s.p.proj.name
}

func (s *sess) tiny() {
	p, t, r := s.p, s.main, s.r
	switch p.tiny {
	case tinySnapshots:
		for i := rint(r, 1, 3); i > 0; i-- {
			ts := s.tick(1000, 60000)
			s.snapshot(newUUID(r), ts)
			if ts > t.f.maxTS {
				t.f.maxTS = ts
			}
		}
	case tinySystem:
		for i := rint(r, 2, 4); i > 0; i-- {
			b := append(s.pb[:0], `,"subtype":"local_command","content":"<command-name>/doctor</command-name>\n            <command-message>doctor</command-message>\n            <command-args></command-args>","level":"info","isMeta":false`...)
			s.pb = b
			t.system(b, s.tick(500, 20000), true)
		}
	case tinySummary:
		for i := rint(r, 1, 2); i > 0; i-- {
			leaf := s.g.projLeaf[p.proj.folder]
			if leaf == "" {
				leaf = newUUID(r)
			}
			s.summaryLine(leaf)
		}
	}
}

func (s *sess) snapshot(msgID string, ts int64) {
	b := append(s.lb[:0], `{"type":"file-history-snapshot","messageId":"`...)
	b = append(b, msgID...)
	b = append(b, `","snapshot":{"messageId":"`...)
	b = append(b, msgID...)
	b = append(b, `","trackedFileBackups":{`...)
	for i, path := range s.edited {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSON(b, path)
		b = append(b, `:{"backupFileName":"`...)
		b = append(b, randHex(s.r, 16)...)
		b = append(b, `@v2","version":2,"backupTime":`...)
		b = appendTS(b, ts-int64(i+1)*1000)
		b = append(b, '}')
	}
	b = append(b, `},"timestamp":`...)
	b = appendTS(b, ts)
	b = append(b, `},"isSnapshotUpdate":false}`...)
	b = append(b, '\n')
	s.lb = b
	s.main.plain(b, 0)
}

// oneTurn writes a human prompt and the agent's work up to its final answer.
func (s *sess) oneTurn() {
	p, g, r, t := s.p, s.g, s.r, s.main
	if s.rec != nil && s.turn == 1 && !p.fullCopy {
		t.f.rec = s.rec
		s.rec.base = t.f.results
		s.rec.baseCall = t.f.calls
	}
	if s.turn == 5 && !p.fullCopy {
		s.stopRecording()
	}
	s.setClock(s.clock + int64(logUniform(r, 4000, 240000)))
	s.maybeCompact()
	if p.cwdMove && s.turn == 2 {
		sep := "/"
		if p.proj.windows {
			sep = `\`
		}
		s.cwd = p.proj.cwd + sep + pick(r, []string{"packages" + sep + "web", "services" + sep + "api", "docs"})
		t.setEnvelope()
	}
	if s.v.atLeast("2.0.57") && chance(r, 0.05) {
		ts := s.tick(100, 2000)
		b := append(s.lb[:0], `{"type":"queue-operation","operation":"enqueue","timestamp":`...)
		b = appendTS(b, ts)
		b = append(b, `,"sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, `","content":`...)
		b = appendJSON(b, take(r, g.pools.prose, rint(r, 20, 200)))
		b = append(b, "}\n"...)
		s.lb = b
		t.plain(b, ts)
		ts = s.tick(1000, 30000)
		b = append(s.lb[:0], `{"type":"queue-operation","operation":"dequeue","timestamp":`...)
		b = appendTS(b, ts)
		b = append(b, `,"sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, "\"}\n"...)
		s.lb = b
		t.plain(b, ts)
	}
	if s.turn > 0 && s.v.atLeast("2.0.0") && chance(r, 0.03) {
		s.commandLines()
	}

	// the prompt
	rarePrompt := p.rare == 1 && s.turn == 0
	var text []byte
	switch v := r.Float64(); {
	case rarePrompt:
		text = []byte(string(take(r, g.pools.prose, rint(r, 40, 200))) + " " + RareWord + " " + string(take(r, g.pools.prose, rint(r, 20, 120))))
	case v < 0.08:
		text = []byte(string(take(r, g.pools.prose, rint(r, 40, 200))) + "\n\n" + string(take(r, g.pools.code, rint(r, 500, 8000))))
	default:
		text = take(r, g.pools.prose, int(logUniform(r, 25, 900)))
	}
	c := s.cb[:0]
	x := s.xb[:0]
	if p.image && !s.didImage && s.imageInPrompt {
		s.didImage = true
		c = append(c, `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`...)
		c = append(c, g.pools.base64(r, s.imageSize())...)
		c = append(c, `"}},{"type":"text","text":`...)
		c = appendJSON(c, text)
		c = append(c, `}]`...)
		x = append(x, `,"imagePasteIds":[1]`...)
		g.truth.Notes["lines_with_base64_image"]++
	} else {
		c = appendJSON(c, text)
	}
	if s.v.atLeast("2.1.97") {
		x = append(x, `,"promptId":"`...)
		x = append(x, newUUID(r)...)
		x = append(x, '"')
	}
	if s.v.atLeast("2.1.0") {
		x = append(x, `,"permissionMode":"default"`...)
	}
	s.cb, s.xb = c, x
	if rarePrompt {
		s.rarePlace(t.f, "user_prompt")
	}
	pu := t.userLine(c, x, s.tick(0, 0))
	s.spend(len(c))
	t.addContext(len(text))
	if s.v.atLeast("2.0.8") {
		s.snapshot(pu, s.clock)
	}
	if s.v.atLeast("2.1.90") && chance(r, 0.35) {
		s.attachment()
	}

	// No API error before the first real response: that one may carry the
	// rare word or the image.
	if s.firstDone && (p.synthetic && !s.didSynth || chance(r, 0.003)) {
		s.didSynth = true
		t.synthetic()
		s.afterTurn(text, rarePrompt)
		return
	}
	if s.v.atLeast("2.1.0") && chance(r, 0.003) {
		b := append(s.pb[:0], `,"subtype":"api_error","level":"error","error":{"status":529,"headers":{},"requestID":null,"error":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}},"retryInMs":`...)
		b = appendInt(b, int64(rint(r, 500, 9000)))
		b = append(b, `,"retryAttempt":1,"maxRetries":10`...)
		s.pb = b
		t.system(b, s.tick(500, 9000), false)
	}

	rounds := 1
	for rounds < 25 && !chance(r, 0.2) {
		rounds++
	}
	if p.replaySrc && s.turn < 5 {
		rounds = min(rounds, 3) // keep the replayed turns small
	}
	if !t.work(rounds, s.full) && chance(r, 0.01) {
		c := append(s.cb[:0], `[{"type":"text","text":"[Request interrupted by user]"}]`...)
		s.cb = c
		t.userLine(c, nil, s.tick(500, 20000))
	}
	s.afterTurn(text, rarePrompt)
}

func (s *sess) afterTurn(prompt []byte, rarePrompt bool) {
	p, r, t := s.p, s.r, s.main
	if s.v.atLeast("2.1.12") && chance(r, 0.7) {
		b := append(s.pb[:0], `,"subtype":"turn_duration","durationMs":`...)
		b = appendInt(b, int64(rint(r, 3000, 600000)))
		if s.v.atLeast("2.1.63") {
			b = append(b, `,"messageCount":`...)
			b = appendInt(b, int64(rint(r, 2, 80)))
		}
		b = append(b, `,"isMeta":false`...)
		s.pb = b
		t.system(b, s.tick(5, 200), true)
	}
	if s.v.atLeast("2.1.12") && chance(r, 0.04) {
		b := append(s.pb[:0], `,"subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":"~/.claude/hooks/notify.sh"}],"hookErrors":[],"preventedContinuation":false,"stopReason":"","hasOutput":false,"level":"suggestion"`...)
		s.pb = b
		t.system(b, s.tick(5, 200), true)
	}
	if s.v.atLeast("2.1.119") && chance(r, 0.05) {
		b := append(s.pb[:0], `,"subtype":"away_summary","content":`...)
		b = appendJSON(b, take(r, s.g.pools.prose, rint(r, 80, 300)))
		b = append(b, `,"isMeta":false`...)
		s.pb = b
		t.system(b, s.tick(60000, 600000), true)
	}
	if s.v.atLeast("2.1.69") && !rarePrompt {
		b := append(s.lb[:0], `{"type":"last-prompt","lastPrompt":`...)
		b = appendJSON(b, prompt)
		b = append(b, `,"leafUuid":"`...)
		b = append(b, t.parent...)
		b = append(b, `","sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, "\"}\n"...)
		s.lb = b
		t.plain(b, 0)
	}
	if s.v.atLeast("2.1.87") && (s.turn == 0 || chance(r, 0.15)) {
		b := append(s.lb[:0], `{"type":"ai-title","aiTitle":`...)
		b = appendJSON(b, s.title())
		b = append(b, `,"sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, "\"}\n"...)
		s.lb = b
		t.plain(b, 0)
	}
	if s.turn == 1 && s.v.atLeast("2.1.23") && chance(r, 0.02) {
		b := append(s.lb[:0], `{"type":"custom-title","customTitle":`...)
		b = appendJSON(b, s.title())
		b = append(b, `,"sessionId":"`...)
		b = append(b, p.id...)
		b = append(b, "\"}\n"...)
		s.lb = b
		t.plain(b, 0)
	}
	s.turn++
}

func (s *sess) attachment() {
	t, r := s.main, s.r
	uid := newUUID(r)
	ts := s.tick(1, 20)
	b := t.begin(s.lb[:0])
	b = append(b, `,"attachment":`...)
	switch r.IntN(3) {
	case 0:
		b = append(b, `{"type":"task_reminder","content":[],"itemCount":0}`...)
	case 1:
		b = append(b, `{"type":"date_change","newDate":"`...)
		b = append(b, dayUTC(ts)...)
		b = append(b, `"}`...)
	default:
		b = append(b, `{"type":"edited_text_file","filename":`...)
		b = appendJSON(b, s.absPath(s.relPath()))
		b = append(b, `,"snippet":`...)
		b = appendJSON(b, take(r, s.g.pools.code, rint(r, 100, 1200)))
		b = append(b, '}')
	}
	b = append(b, `,"type":"attachment"`...)
	b = t.end(b, uid, ts)
	s.lb = b
	t.put(b, uid, ts, true)
}

// commandLines writes a slash-command exchange (none of it is a prompt) and
// sometimes switches the model.
func (s *sess) commandLines() {
	t, r := s.main, s.r
	caveat := "Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to."
	if s.v.atLeast("2.1.0") {
		caveat = "<local-command-caveat>" + caveat + "</local-command-caveat>"
	}
	c := appendJSON(s.cb[:0], caveat)
	s.cb = c
	t.userLine(c, []byte(`,"isMeta":true`), s.tick(100, 3000))
	c = appendJSON(s.cb[:0], "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>")
	s.cb = c
	t.userLine(c, nil, s.tick(1, 20))
	models := eraModels[s.p.era]
	nm := pick(r, models)
	c = appendJSON(s.cb[:0], "<local-command-stdout>Set model to \x1b[1m"+nm+"\x1b[22m</local-command-stdout>")
	s.cb = c
	t.userLine(c, nil, s.tick(1, 20))
	if !s.p.proxy {
		t.model = nm
	}
}

// maybeCompact writes a compaction (boundary + summary) when the context is
// full, or once halfway for sessions planned to compact.
func (s *sess) maybeCompact() {
	t, p, r := s.main, s.p, s.r
	force := p.compact && !s.compacted && s.progressBytes() >= p.target/2
	if !force && t.ctxTok < 160000 || p.era == eraV1 {
		return
	}
	s.compacted = true
	if p.acompact && !s.didAcompact {
		s.acompactWorker()
	}
	logical := t.parent
	t.parent = ""
	pre := t.ctxTok
	b := append(s.pb[:0], `,"subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","logicalParentUuid":`...)
	if logical == "" {
		b = append(b, "null"...)
	} else {
		b = appendJSON(b, logical)
	}
	b = append(b, `,"compactMetadata":{"trigger":"auto","preTokens":`...)
	b = appendInt(b, pre)
	b = append(b, `}`...)
	s.pb = b
	t.system(b, s.tick(20000, 150000), true)
	sum := "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n" +
		string(take(r, s.g.pools.prose, rint(r, 2000, 8000)))
	c := appendJSON(s.cb[:0], sum)
	s.cb = c
	t.userLine(c, []byte(`,"isVisibleInTranscriptOnly":true,"isCompactSummary":true`), s.tick(5, 100))
	t.ctxTok = 0
	t.added = int64(rint(r, 12000, 30000))
	s.g.truth.Notes["compactions"]++
}

// danglingCall ends the session on a tool call that never got a result.
func (s *sess) danglingCall() {
	t := s.main
	c := s.newCall(t, pick(s.r, []toolKind{tBash, tRead, tEdit}))
	blocks := []block{{json: s.textBlock(40, 300)}, {json: c.blockJSON(), call: c}}
	t.respond(blocks, "tool_use", int64(rint(s.r, 40, 400)))
	s.g.countCall(c.name, outPending)
}

func (s *sess) textBlock(lo, hi int) []byte {
	b := make([]byte, 0, hi+64)
	b = append(b, `{"type":"text","text":`...)
	b = appendJSON(b, take(s.r, s.g.pools.prose, rint(s.r, lo, hi)))
	return append(b, '}')
}

func (s *sess) thinkingBlock() ([]byte, int64) {
	r := s.r
	b := make([]byte, 0, 1024)
	b = append(b, `{"type":"thinking","thinking":`...)
	var tok int64
	if s.emptyThink {
		b = append(b, `""`...)
		tok = int64(rint(r, 30, 900))
	} else {
		txt := take(r, s.g.pools.prose, rint(r, 150, 3000))
		b = appendJSON(b, txt)
		tok = int64(len(txt) / 4)
	}
	b = append(b, `,"signature":"`...)
	b = append(b, s.g.pools.base64(r, rint(r, 200, 900))...)
	return append(b, `"}`...), tok
}

func (s *sess) rarePlace(f *jfile, kind string) {
	tr := &s.g.truth.RareWord
	tr.Places = append(tr.Places, RarePlace{Session: s.p.id, File: f.rel, Line: f.lines + 1, Kind: kind})
	tr.Sessions = append(tr.Sessions, s.p.id)
}

// work runs up to maxRounds tool rounds (fewer when stop says so), then
// writes the final answer. It reports whether the user rejected a call,
// which ends the turn without an answer.
func (t *thread) work(maxRounds int, stop func() bool) bool {
	s := t.s
	r := s.r
	for round := 0; round < maxRounds; round++ {
		if round > 0 && stop() {
			break
		}
		first := t.isMain && !s.firstDone
		if t.isMain {
			s.firstDone = true
		}
		calls := t.chooseCalls(first)
		var blocks []block
		var out int64 = int64(rint(r, 10, 60))
		if s.thinking && chance(r, 0.5) {
			bl, tok := s.thinkingBlock()
			blocks = append(blocks, block{json: bl})
			out += tok
		}
		if first && s.p.rare == 2 {
			b := []byte(`{"type":"text","text":`)
			b = appendJSON(b, string(take(r, s.g.pools.prose, rint(r, 40, 300)))+" I'll keep the "+RareWord+" naming for now.")
			b = append(b, '}')
			blocks = append(blocks, block{json: b, rare: true})
			out += int64(len(b) / 4)
		} else if chance(r, 0.55) {
			bl := s.textBlock(30, 600)
			blocks = append(blocks, block{json: bl})
			out += int64(len(bl) / 4)
		}
		for _, c := range calls {
			bl := c.blockJSON()
			blocks = append(blocks, block{json: bl, call: c})
			out += int64(len(c.input) / 4)
		}
		if first && s.p.rare == 2 {
			// the rare line is the text block: note its line number
			for i, bl := range blocks {
				if bl.rare {
					tr := &s.g.truth.RareWord
					tr.Places = append(tr.Places, RarePlace{Session: s.p.id, File: t.f.rel, Line: t.f.lines + int64(i) + 1, Kind: "assistant_text"})
					tr.Sessions = append(tr.Sessions, s.p.id)
				}
			}
		}
		t.respond(blocks, "tool_use", out)
		for _, c := range calls {
			t.result(c)
			if c.outcome == outRejected {
				c2 := append(s.cb[:0], `[{"type":"text","text":"[Request interrupted by user for tool use]"}]`...)
				s.cb = c2
				t.userLine(c2, nil, s.tick(5, 400))
				return true
			}
		}
		t.tools += len(calls)
		if t.isMain {
			s.maybeCompact()
		}
	}
	var blocks []block
	var out int64 = int64(rint(r, 20, 120))
	if s.thinking && chance(r, 0.4) {
		bl, tok := s.thinkingBlock()
		blocks = append(blocks, block{json: bl})
		out += tok
	}
	txt := take(r, s.g.pools.prose, rint(r, 80, 2500))
	bl := appendJSON([]byte(`{"type":"text","text":`), txt)
	bl = append(bl, '}')
	blocks = append(blocks, block{json: bl})
	out += int64(len(bl) / 4)
	t.finalText = txt
	t.respond(blocks, "end_turn", out)
	return false
}

// chooseCalls picks the tool calls of the next response.
func (t *thread) chooseCalls(first bool) []*toolCall {
	s := t.s
	p, r := s.p, s.r
	if t.isMain {
		if first && p.rare == 3 {
			return []*toolCall{s.newCallRare()}
		}
		if first && p.image && !s.didImage && !s.imageInPrompt {
			c := s.newCall(t, tMCP)
			m := &mcpTools[3]
			c.mcp, c.name, c.input = m, m.name, []byte(m.input)
			return []*toolCall{c}
		}
		if p.persisted && !s.didPersist {
			return []*toolCall{s.newCall(t, tBash)} // its output is spilled to tool-results/
		}
		var calls []*toolCall
		for len(s.agentAt) > 0 && s.progressBytes() >= s.agentAt[0] && len(calls) < 2 {
			s.agentAt = s.agentAt[1:]
			calls = append(calls, s.newCall(t, tAgent))
		}
		if len(calls) > 0 {
			return calls
		}
	}
	n := 1
	if v := r.Float64(); v < 0.05 {
		n = 3
	} else if v < 0.15 {
		n = 2
	}
	forceReject := t.isMain && p.reject && !s.didReject
	if forceReject {
		n = 1
	}
	w := mainToolWeights
	if t.explore {
		w = exploreToolWeights
	}
	calls := make([]*toolCall, n)
	for i := range calls {
		c := s.newCall(t, toolKind(pickWeighted(r, w)))
		if c.kind != tTodo && chance(r, 0.075) {
			c.outcome = outError
		}
		calls[i] = c
	}
	if n == 1 && t.isMain && (chance(r, 0.01) || forceReject) {
		s.didReject = true
		calls[0].outcome = outRejected
	}
	return calls
}

// newCallRare is the Grep call whose result holds the rare word.
func (s *sess) newCallRare() *toolCall {
	c := s.newCall(s.main, tGrep)
	c.rare = true
	b := []byte(`{"pattern":"flag stays off","path":`)
	b = appendJSON(b, s.cwd)
	c.input = append(b, `,"output_mode":"content","-n":true}`...)
	return c
}
