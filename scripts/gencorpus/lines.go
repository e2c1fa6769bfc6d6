package main

// Line builders. Every builder appends one complete JSONL line to a scratch
// buffer and hands it to the thread's file. Shapes follow docs/log-format.md
// and the files under shared/corpus/public/.

type usageT struct {
	in, cc, cr, out, c5, c1 int64
	split                   bool // the cache_creation object is present
}

// thread is one conversation chain written to one file: the main thread of a
// session, a subagent, or an inline 1.0.x sidechain inside the main file.
type thread struct {
	s         *sess
	f         *jfile
	sidechain bool
	agentID   string
	pre, post []byte // envelope fields, before the body (old key order) or after it (2.1.74+)
	parent    string // uuid of the last line of the chain; "" writes null
	model     string
	growing   bool // output_tokens grows over the copies of a response
	tur       bool // write toolUseResult on tool results
	progress  bool // write progress lines (main thread of 2.1.12–2.1.81)
	isMain    bool
	explore   bool

	ctxTok    int64 // cached context before the next request
	added     int64 // tokens added since the last request
	last      usageT
	tools     int
	embeds    []embed // copies of lines for the parent's agent_progress lines
	embed     bool
	finalText []byte // raw text of the last final answer
}

type embed struct {
	ts   int64
	uuid string
	req  string
	msg  []byte // the whole "message" object, or the prompt text for user lines
	user bool
}

func (t *thread) setEnvelope() {
	s := t.s
	b := make([]byte, 0, 256)
	b = append(b, `,"userType":"external"`...)
	if s.v.atLeast("2.1.79") {
		b = append(b, `,"entrypoint":`...)
		b = appendJSON(b, s.entry)
	}
	b = append(b, `,"cwd":`...)
	b = appendJSON(b, s.cwd)
	b = append(b, `,"sessionId":"`...)
	b = append(b, s.p.id...)
	b = append(b, `","version":"`...)
	b = append(b, s.p.version...)
	b = append(b, `","gitBranch":`...)
	b = appendJSON(b, s.branch)
	if t.agentID != "" {
		b = append(b, `,"agentId":"`...)
		b = append(b, t.agentID...)
		b = append(b, '"')
	}
	if s.slug != "" {
		b = append(b, `,"slug":"`...)
		b = append(b, s.slug...)
		b = append(b, '"')
	}
	if s.v.atLeast("2.1.74") {
		t.pre, t.post = nil, b
	} else {
		t.pre, t.post = b, nil
	}
}

func (t *thread) begin(b []byte) []byte {
	b = append(b, `{"parentUuid":`...)
	if t.parent == "" {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = append(b, t.parent...)
		b = append(b, '"')
	}
	if t.sidechain {
		b = append(b, `,"isSidechain":true`...)
	} else {
		b = append(b, `,"isSidechain":false`...)
	}
	return append(b, t.pre...)
}

func (t *thread) end(b []byte, uuid string, ts int64) []byte {
	b = append(b, `,"uuid":"`...)
	b = append(b, uuid...)
	b = append(b, `","timestamp":`...)
	b = appendTS(b, ts)
	b = append(b, t.post...)
	return append(b, "}\n"...)
}

// put writes a finished line and moves the chain on to it.
func (t *thread) put(b []byte, uuid string, ts int64, chain bool) {
	t.f.put(b, ts)
	if chain {
		t.parent = uuid
	}
}

// userLine writes a user line whose message.content is the JSON value
// content; extra holds more top-level keys (starting with ',') or nothing.
func (t *thread) userLine(content, extra []byte, ts int64) string {
	s := t.s
	u := newUUID(s.r)
	b := t.begin(s.lb[:0])
	b = append(b, `,"type":"user","message":{"role":"user","content":`...)
	b = append(b, content...)
	b = append(b, '}')
	b = append(b, extra...)
	b = t.end(b, u, ts)
	s.lb = b
	t.put(b, u, ts, true)
	return u
}

// appendUsage writes a usage object in the style of the session's version.
func (s *sess) appendUsage(b []byte, u usageT, proxyPartial bool) []byte {
	if s.p.proxy {
		if proxyPartial {
			return append(b, `{"input_tokens":0,"output_tokens":0}`...)
		}
		b = append(b, `{"input_tokens":`...)
		b = appendInt(b, u.in)
		b = append(b, `,"output_tokens":`...)
		b = appendInt(b, u.out)
		return append(b, '}')
	}
	cc := u.cc
	if s.p.v152 && u.split {
		cc = 0 // Claude Code 2.1.152: only the split says how much was written
	}
	b = append(b, `{"input_tokens":`...)
	b = appendInt(b, u.in)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = appendInt(b, cc)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = appendInt(b, u.cr)
	split := func(b []byte, oneHourFirst bool) []byte {
		if !u.split {
			return b
		}
		if oneHourFirst {
			b = append(b, `,"cache_creation":{"ephemeral_1h_input_tokens":`...)
			b = appendInt(b, u.c1)
			b = append(b, `,"ephemeral_5m_input_tokens":`...)
			b = appendInt(b, u.c5)
		} else {
			b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
			b = appendInt(b, u.c5)
			b = append(b, `,"ephemeral_1h_input_tokens":`...)
			b = appendInt(b, u.c1)
		}
		return append(b, '}')
	}
	if s.p.era <= eraV21a {
		b = split(b, false)
		b = append(b, `,"output_tokens":`...)
		b = appendInt(b, u.out)
		return append(b, `,"service_tier":"standard"}`...)
	}
	b = append(b, `,"output_tokens":`...)
	b = appendInt(b, u.out)
	b = append(b, `,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard"`...)
	b = split(b, true)
	b = append(b, `,"inference_geo":""`...)
	if s.v.atLeast("2.1.97") {
		b = append(b, `,"iterations":[{`...)
		b = appendIterationTokens(b, u, cc)
		b = split(b, false)
		b = append(b, `,"type":"message"}`...)
		if s.adv != nil {
			b = appendAdvisor(b, s.p.advisor, s.adv)
		}
		b = append(b, ']')
	}
	b = append(b, `,"speed":"standard"`...)
	if s.v.atLeast("2.1.300") {
		b = append(b, `,"output_tokens_details":{"thinking_tokens":`...)
		b = appendInt(b, u.out/3)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendIterationTokens writes the token fields of a usage.iterations entry;
// cc is its cache_creation_input_tokens.
func appendIterationTokens(b []byte, u usageT, cc int64) []byte {
	b = append(b, `"input_tokens":`...)
	b = appendInt(b, u.in)
	b = append(b, `,"output_tokens":`...)
	b = appendInt(b, u.out)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = appendInt(b, u.cr)
	b = append(b, `,"cache_creation_input_tokens":`...)
	return appendInt(b, cc)
}

// block is one content block of an assistant response, already JSON.
type block struct {
	json []byte
	call *toolCall
	rare bool // holds the rare word: never reused as a copy
}

// respond writes one API response as one line per block (SPEC §3: same
// message.id and requestId on every copy; input/cache identical; output
// either identical or a small running count until the last line). It counts
// the response in the truth and returns the last line's timestamp.
func (t *thread) respond(blocks []block, stop string, outTok int64) int64 {
	s := t.s
	g := s.g
	if outTok < 2 {
		outTok = 2
	}
	u := t.nextUsage(outTok)
	msgID := randB62(s.r, "msg_01", 22)
	relaySplit := false // the relay's non-final copies carry the input side and a running output
	if s.p.relay {
		msgID = relayID
		relaySplit = len(blocks) > 1 && chance(s.r, 0.4)
	}
	if s.p.advisor != "" && !s.p.proxy && s.v.atLeast("2.1.97") && (!s.didAdvisor || chance(s.r, 0.2)) {
		s.adv = s.advisorUsage()
		s.didAdvisor = true
	}
	reqID := ""
	if !s.p.proxy {
		reqID = randB62(s.r, "req_011C", 20)
	}
	// Timestamps of the copies, all on one UTC day so the day bucket does
	// not depend on which copy a reader keeps.
	n := len(blocks)
	ts := s.tsBuf[:0]
	t0 := s.tick(300, 4000)
	for {
		ts = ts[:0]
		c := t0
		for i := 0; i < n; i++ {
			if i > 0 {
				c += int64(rint(s.r, 3, 900))
			}
			ts = append(ts, c)
		}
		if dayUTC(ts[0]) == dayUTC(ts[n-1]) {
			break
		}
		t0 = nextMidnight(t0) + int64(rint(s.r, 5, 500))
	}
	s.tsBuf = ts
	s.setClock(ts[n-1])

	early := int64(rint(s.r, 1, 30))
	if early >= outTok {
		early = outTok - 1
	}
	for i, bl := range blocks {
		last := i == n-1
		lu := u
		if (t.growing || relaySplit) && !last {
			lu.out = early
			if early < outTok-1 && s.r.IntN(3) == 0 {
				early++
			}
		}
		sr := stop
		if !last && (t.growing || s.p.proxy) {
			sr = ""
		}
		uid := newUUID(s.r)
		b := t.begin(s.lb[:0])
		b = append(b, `,"message":`...)
		msgStart := len(b)
		b = append(b, `{"model":`...)
		b = appendJSON(b, t.model)
		b = append(b, `,"id":"`...)
		b = append(b, msgID...)
		b = append(b, `","type":"message","role":"assistant","content":[`...)
		b = append(b, bl.json...)
		b = append(b, `],"stop_reason":`...)
		if sr == "" {
			b = append(b, "null"...)
		} else {
			b = appendJSON(b, sr)
		}
		b = append(b, `,"stop_sequence":null`...)
		if s.v.atLeast("2.1.110") {
			b = append(b, `,"stop_details":null`...)
		}
		b = append(b, `,"usage":`...)
		b = s.appendUsage(b, lu, s.p.proxy && !last && !relaySplit)
		b = append(b, '}')
		msgEnd := len(b)
		if reqID != "" {
			b = append(b, `,"requestId":"`...)
			b = append(b, reqID...)
			b = append(b, '"')
		}
		b = append(b, `,"type":"assistant"`...)
		b = t.end(b, uid, ts[i])
		s.lb = b
		if bl.call != nil {
			bl.call.assistantUUID = uid
			t.f.calls++
		}
		if t.embed && len(t.embeds) < 24 {
			t.embeds = append(t.embeds, embed{ts: ts[i], uuid: uid, req: reqID, msg: append([]byte(nil), b[msgStart:msgEnd]...)})
		}
		if t.isMain && !bl.rare && bl.call == nil && s.p.acompact && !s.didAcompact {
			s.lastTextLine = append(s.lastTextLine[:0], b...)
			s.lastTextTS = ts[i]
		}
		t.put(b, uid, ts[i], true)
	}
	g.countResponse(t.model, ts[n-1], u)
	if s.adv != nil {
		g.countAdvisor(s.p.advisor, ts[n-1], *s.adv)
		s.adv = nil
	}
	t.last = u
	s.spend(n * 600)
	return ts[n-1]
}

// nextUsage derives a response's usage from the thread's context: the prefix
// already cached is read, what was added since the last request is written.
func (t *thread) nextUsage(out int64) usageT {
	s := t.s
	u := usageT{out: out}
	if s.p.proxy {
		u.in = t.ctxTok + t.added
		if s.p.relay {
			u.in = s.g.relayInput(u.in)
		}
	} else {
		u.in = int64(rint(s.r, 1, 8))
		if chance(s.r, 0.03) {
			u.in = int64(rint(s.r, 100, 4000))
		}
		u.cc = t.added + int64(rint(s.r, 0, 300))
		u.cr = t.ctxTok
		if t.ctxTok == 0 && chance(s.r, 0.5) {
			// system prompt and tools already cached by an earlier session
			u.cr = int64(rint(s.r, 9000, 15000))
			if u.cc > u.cr {
				u.cc -= u.cr
			}
		}
		u.split = s.split != splitNone
		switch s.split {
		case splitNone, split5m:
			u.c5 = u.cc
		case split1h:
			u.c1 = u.cc
		default:
			u.c1 = u.cc * int64(rint(s.r, 0, 10)) / 10
			u.c5 = u.cc - u.c1
		}
	}
	t.ctxTok = u.cr + u.cc + u.in
	if s.p.proxy {
		t.ctxTok = u.in
	}
	t.added = out
	return u
}

func (t *thread) addContext(bytes int) { t.added += int64(bytes/4) + 8 }

// synthetic writes a <synthetic> API error reply: zero usage, not model usage.
func (t *thread) synthetic() {
	s := t.s
	ts := s.tick(200, 30000)
	uid := newUUID(s.r)
	mid := newUUID(s.r)
	b := t.begin(s.lb[:0])
	b = append(b, `,"type":"assistant","uuid":"`...)
	b = append(b, uid...)
	b = append(b, `","timestamp":`...)
	b = appendTS(b, ts)
	b = append(b, `,"message":{"id":"`...)
	b = append(b, mid...)
	b = append(b, `","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":null,"iterations":null,"speed":null},"content":[{"type":"text","text":`...)
	b = appendJSON(b, pick(s.r, apiErrorTexts))
	b = append(b, `}],"context_management":null}`...)
	if s.v.atLeast("2.1.0") {
		b = append(b, `,"error":"`...)
		b = append(b, pick(s.r, []string{"unknown", "unknown", "unknown", "rate_limit"})...)
		b = append(b, '"')
	}
	b = append(b, `,"isApiErrorMessage":true`...)
	b = append(b, t.post...)
	b = append(b, "}\n"...)
	s.lb = b
	t.put(b, uid, ts, true)
	s.g.truth.APIErrors++
}

var apiErrorTexts = []string{
	`API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`API Error: 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
	"Invalid API key · Please run /login",
	`API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 204312 tokens > 200000 maximum"}}`,
	"API Error: Request timed out.",
}

// system writes a system line; body starts with ',"subtype":...'.
func (t *thread) system(body []byte, ts int64, chain bool) string {
	s := t.s
	uid := newUUID(s.r)
	b := t.begin(s.lb[:0])
	b = append(b, `,"type":"system"`...)
	b = append(b, body...)
	b = t.end(b, uid, ts)
	s.lb = b
	t.put(b, uid, ts, chain)
	return uid
}

// progress writes a progress line (never part of the chain).
func (t *thread) progressLine(data []byte, toolUseID, parentToolUseID string, ts int64) {
	s := t.s
	uid := newUUID(s.r)
	b := t.begin(s.lb[:0])
	b = append(b, `,"type":"progress","data":`...)
	b = append(b, data...)
	b = append(b, `,"toolUseID":`...)
	b = appendJSON(b, toolUseID)
	b = append(b, `,"parentToolUseID":`...)
	b = appendJSON(b, parentToolUseID)
	b = t.end(b, uid, ts)
	s.lb = b
	t.put(b, uid, ts, false)
}

// plain writes a line without the envelope (snapshot, titles, queue ops).
func (t *thread) plain(b []byte, ts int64) {
	t.f.put(b, ts)
}
