package claudecode

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/agent-activity/agent-activity/transcript"
)

// The fast path of the line decoder.
//
// Nearly every byte of a Claude Code history is payload the reader never
// looks at: tool results, their toolUseResult copies, thinking, file
// snapshots. sonic walks those bytes twice (the envelope skips the content,
// then the blocks are decoded from it) and spends most of a fresh read there.
// fastDecoder.decode walks a line once: it finds the fields of rawLine and the
// content blocks in one pass and skips everything else by searching for
// quotes. The same decoder reads tool inputs and tool result content.
//
// It handles the shapes Claude Code writes and nothing more. Whenever a line
// holds anything it does not handle exactly as sonic does (a field of an
// unexpected type, a repeated field, an escaped key, a count that is not a
// plain integer, a cost with an exponent, invalid JSON), it declines, and sonic
// decodes the line and decides. TestFastLineAgrees and FuzzFastLine hold the
// two to the same answers.

// fastDecoder holds the storage one line's decode reuses.
type fastDecoder struct {
	b      []byte
	i      int
	line   rawLine
	msg    rawMessage
	usage  rawUsage
	iters  []rawIteration
	blocks []rawBlock
	cc     []rawCacheCreation // cache_creation objects of this line
	ints   []int64            // the counts those objects point at

	curUsage *rawUsage // the usage object being read: the response's or an iteration's
	curModel string    // the modelUsage member being read
	in       *rawToolInput
	input    rawToolInput // what Reader.toolInput has this decoder fill

	textBuf []byte // the borrowed texts of the current line
	meta    *rawAgentMeta

	// quotes is the line's transcript.QuoteIndex (empty for a value decoded
	// on its own, or a line too short for it) and next the entry of the
	// next string's opening quote: quoted takes a string's end from it.
	quotes []uint32
	next   int
}

// maxQuotesKept bounds the quote list a decoder keeps from one line to the
// next (256 KB): a longer one, of a line of megabytes, is made for its line.
const maxQuotesKept = 1 << 16

// maxDepth bounds the nesting the fast path skips; deeper lines go to sonic.
const maxDepth = 64

// decode fills d.line and d.blocks from b; ok is false when sonic must decide.
func (d *fastDecoder) decode(b []byte) bool {
	d.start(b)
	if cap(d.quotes) > maxQuotesKept {
		d.quotes = nil
	}
	d.quotes, _ = transcript.QuoteIndex(b, d.quotes)
	d.line = rawLine{}
	clear(d.blocks)
	d.blocks = d.blocks[:0]
	d.cc, d.ints = d.cc[:0], d.ints[:0]
	d.ws()
	if !d.object(kTop, 0) {
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

// start sets the decoder at the start of b, with no quote list.
func (d *fastDecoder) start(b []byte) {
	d.b, d.i = b, 0
	d.quotes, d.next = d.quotes[:0], 0
}

// objKind says which struct an object's members go into.
type objKind uint8

const (
	kSkip objKind = iota
	kTop
	kMessage
	kBlock
	kUsage
	kIteration
	kCacheCreation
	kModelUsage // the members of a cost-state line's modelUsage: model -> counts
	kModelCounts
	kToolInput
	kTodo
	kAgentMeta
)

// field reads (or skips) the value of one member of an object of kind k.
func (d *fastDecoder) field(k objKind, key []byte, seen *uint64, depth int) bool {
	switch k {
	case kTop:
		return d.topField(key, seen)
	case kMessage:
		return d.messageField(key, seen)
	case kBlock:
		return d.blockField(key, seen)
	case kUsage, kIteration:
		return d.usageField(k, key, seen)
	case kCacheCreation:
		return d.cacheCreationField(key, seen)
	case kModelUsage:
		return d.modelUsageMember(key)
	case kModelCounts:
		return d.modelCountsField(key, seen)
	case kToolInput:
		return d.toolInputField(key, seen)
	case kTodo:
		return d.todoField(key, seen)
	case kAgentMeta:
		return d.agentMetaField(key, seen)
	}
	return d.skip(depth + 1)
}

// Top-level fields, one bit each, to decline a line that repeats one.
const (
	fType = 1 << iota
	fSubtype
	fUUID
	fSessionID
	fTimestamp
	fCwd
	fGitBranch
	fVersion
	fSidechain
	fMeta
	fCompact
	fAPIError
	fRequestID
	fAgentID
	fMessage
	fSummary
	fLeaf
	fAITitle
	fCustomTitle
	fPRURL
	fPRNumber
	fPRRepo
	fModelUsage
	fTotalCost
)

func (d *fastDecoder) topField(key []byte, seen *uint64) bool {
	l := &d.line
	switch string(key) {
	case "type":
		return once(seen, fType) && d.str(&l.Type)
	case "subtype":
		return once(seen, fSubtype) && d.str(&l.Subtype)
	case "uuid":
		return once(seen, fUUID) && d.str(&l.UUID)
	case "sessionId":
		return once(seen, fSessionID) && d.str(&l.SessionID)
	case "timestamp":
		return once(seen, fTimestamp) && d.str(&l.Timestamp)
	case "cwd":
		return once(seen, fCwd) && d.str(&l.Cwd)
	case "gitBranch":
		return once(seen, fGitBranch) && d.str(&l.GitBranch)
	case "version":
		return once(seen, fVersion) && d.str(&l.Version)
	case "isSidechain":
		return once(seen, fSidechain) && d.bool(&l.IsSidechain)
	case "isMeta":
		return once(seen, fMeta) && d.bool(&l.IsMeta)
	case "isCompactSummary":
		return once(seen, fCompact) && d.bool(&l.IsCompactSummary)
	case "isApiErrorMessage":
		return once(seen, fAPIError) && d.bool(&l.IsAPIErrorMessage)
	case "requestId":
		return once(seen, fRequestID) && d.str(&l.RequestID)
	case "agentId":
		return once(seen, fAgentID) && d.str(&l.AgentID)
	case "message":
		return once(seen, fMessage) && d.message()
	case "summary":
		return once(seen, fSummary) && d.str(&l.Summary)
	case "leafUuid":
		return once(seen, fLeaf) && d.str(&l.LeafUUID)
	case "aiTitle":
		return once(seen, fAITitle) && d.str(&l.AITitle)
	case "customTitle":
		return once(seen, fCustomTitle) && d.str(&l.CustomTitle)
	case "prUrl":
		return once(seen, fPRURL) && d.str(&l.PRURL)
	case "prNumber":
		return once(seen, fPRNumber) && d.int(&l.PRNumber)
	case "prRepository":
		return once(seen, fPRRepo) && d.str(&l.PRRepo)
	case "modelUsage":
		return once(seen, fModelUsage) && d.modelUsage()
	case "totalCostUSD":
		return once(seen, fTotalCost) && d.float(&l.TotalCostUSD)
	}
	return d.skip(0)
}

func (d *fastDecoder) message() bool {
	if d.null() {
		return true
	}
	d.msg = rawMessage{}
	d.line.Message = &d.msg
	return d.object(kMessage, 0)
}

const (
	mID = 1 << iota
	mModel
	mRole
	mContent
	mUsage
)

func (d *fastDecoder) messageField(key []byte, seen *uint64) bool {
	m := &d.msg
	switch string(key) {
	case "id":
		return once(seen, mID) && d.str(&m.ID)
	case "model":
		return once(seen, mModel) && d.str(&m.Model)
	case "role":
		return once(seen, mRole) && d.str(&m.Role)
	case "content":
		return once(seen, mContent) && d.content()
	case "usage":
		if !once(seen, mUsage) {
			return false
		}
		if d.null() {
			return true
		}
		d.usage = rawUsage{}
		m.Usage = &d.usage
		d.curUsage = &d.usage
		return d.object(kUsage, 0)
	}
	return d.skip(0)
}

// content keeps the raw value, as the sonic path does, and decodes its blocks
// in the same pass: a string is one text block, a list is blocks, anything
// else is none.
func (d *fastDecoder) content() bool {
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '[' {
		if !d.blockList() {
			return false
		}
	} else if d.i < len(d.b) && d.b[d.i] == '"' {
		// Unquoted when read, like a text block's: a compaction summary
		// is long and not a prompt, and no pass of a fresh read reads it.
		var b rawBlock
		if !d.lazyStr(&b.Text, &b.escapedText) {
			return false
		}
		b.Type = "text"
		d.blocks = append(d.blocks, b)
	} else if !d.skip(0) {
		return false
	}
	d.msg.Content = d.b[start:d.i]
	return true
}

func (d *fastDecoder) blockList() bool {
	d.i++ // '['
	d.ws()
	if d.peek() == ']' {
		d.i++
		return true
	}
	for {
		if d.peek() != '{' {
			return false // sonic reports a block that is not an object as drift
		}
		d.blocks = append(d.blocks, rawBlock{})
		if !d.object(kBlock, 0) {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
			d.ws()
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}

const (
	bType = 1 << iota
	bText
	bID
	bName
	bInput
	bToolUseID
	bContent
	bIsError
)

func (d *fastDecoder) blockField(key []byte, seen *uint64) bool {
	b := &d.blocks[len(d.blocks)-1]
	switch string(key) {
	case "type":
		return once(seen, bType) && d.str(&b.Type)
	case "text":
		return once(seen, bText) && d.lazyStr(&b.Text, &b.escapedText)
	case "id":
		return once(seen, bID) && d.str(&b.ID)
	case "name":
		return once(seen, bName) && d.str(&b.Name)
	case "input":
		return once(seen, bInput) && d.raw((*[]byte)(&b.Input))
	case "tool_use_id":
		return once(seen, bToolUseID) && d.str(&b.ToolUseID)
	case "content":
		return once(seen, bContent) && d.raw((*[]byte)(&b.Content))
	case "is_error":
		return once(seen, bIsError) && d.bool(&b.IsError)
	}
	return d.skip(0)
}

const (
	uInput = 1 << iota
	uOutput
	uCacheCreate
	uCacheRead
	uSpeed
	uSplit
	uIterations
	uType
	uModel
)

// usageField reads a member of a usage object (kUsage) or of one of its
// iterations (kIteration: type and model besides the counts, no iterations
// of its own), into d.curUsage.
func (d *fastDecoder) usageField(k objKind, key []byte, seen *uint64) bool {
	u := d.curUsage
	switch string(key) {
	case "input_tokens":
		return once(seen, uInput) && d.int(&u.InputTokens)
	case "output_tokens":
		return once(seen, uOutput) && d.int(&u.OutputTokens)
	case "cache_creation_input_tokens":
		return once(seen, uCacheCreate) && d.int(&u.CacheCreationInputTokens)
	case "cache_read_input_tokens":
		return once(seen, uCacheRead) && d.int(&u.CacheReadInputTokens)
	case "speed":
		return once(seen, uSpeed) && d.str(&u.Speed)
	case "cache_creation":
		return once(seen, uSplit) && d.cacheCreation(u)
	case "iterations":
		return k == kUsage && once(seen, uIterations) && d.iterations(u)
	case "type":
		if k == kIteration {
			return once(seen, uType) && d.str(&d.iters[len(d.iters)-1].Type)
		}
	case "model":
		if k == kIteration {
			return once(seen, uModel) && d.str(&d.iters[len(d.iters)-1].Model)
		}
	}
	return d.skip(0)
}

func (d *fastDecoder) cacheCreation(u *rawUsage) bool {
	if d.peek() != '{' {
		return false // null and other shapes: sonic decides
	}
	if len(d.cc) == cap(d.cc) {
		d.cc = make([]rawCacheCreation, 0, 2*cap(d.cc)+2) // earlier pointers keep the old array
	}
	d.cc = append(d.cc, rawCacheCreation{})
	u.CacheCreation = &d.cc[len(d.cc)-1]
	return d.object(kCacheCreation, 0)
}

func (d *fastDecoder) cacheCreationField(key []byte, seen *uint64) bool {
	cc := &d.cc[len(d.cc)-1]
	switch string(key) {
	case "ephemeral_5m_input_tokens":
		return once(seen, 1) && d.intPtr(&cc.Ephemeral5m)
	case "ephemeral_1h_input_tokens":
		return once(seen, 2) && d.intPtr(&cc.Ephemeral1h)
	}
	return d.skip(0)
}

func (d *fastDecoder) intPtr(p **int64) bool {
	if len(d.ints) == cap(d.ints) {
		d.ints = make([]int64, 0, 2*cap(d.ints)+4)
	}
	d.ints = append(d.ints, 0)
	n := &d.ints[len(d.ints)-1]
	if !d.intStrict(n) {
		return false
	}
	*p = n
	return true
}

func (d *fastDecoder) iterations(u *rawUsage) bool {
	if d.null() {
		return true
	}
	if d.peek() != '[' {
		return false
	}
	d.i++
	clear(d.iters)
	d.iters = d.iters[:0]
	d.ws()
	if d.peek() == ']' {
		d.i++
		u.Iterations = d.iters[:0:0]
		return true
	}
	for {
		if d.peek() != '{' {
			return false
		}
		d.iters = append(d.iters, rawIteration{})
		d.curUsage = &d.iters[len(d.iters)-1].rawUsage
		ok := d.object(kIteration, 0)
		d.curUsage = u
		if !ok {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
			d.ws()
		case ']':
			d.i++
			u.Iterations = d.iters
			return true
		default:
			return false
		}
	}
}

// modelUsage reads a cost-state line's token account: an object of model
// names to counts. A repeated model declines (sonic's map keeps the last).
func (d *fastDecoder) modelUsage() bool {
	if d.null() {
		return true
	}
	d.line.ModelUsage = map[string]rawModelUsage{}
	return d.object(kModelUsage, 0)
}

func (d *fastDecoder) modelUsageMember(key []byte) bool {
	m := unsafe.String(unsafe.SliceData(key), len(key))
	if _, dup := d.line.ModelUsage[m]; dup || d.peek() != '{' {
		return false
	}
	d.line.ModelUsage[m] = rawModelUsage{}
	d.curModel = m
	return d.object(kModelCounts, 0)
}

func (d *fastDecoder) modelCountsField(key []byte, seen *uint64) bool {
	mu := d.line.ModelUsage[d.curModel]
	var ok bool
	switch string(key) {
	case "inputTokens":
		ok = once(seen, 1) && d.int(&mu.InputTokens)
	case "outputTokens":
		ok = once(seen, 2) && d.int(&mu.OutputTokens)
	case "cacheReadInputTokens":
		ok = once(seen, 4) && d.int(&mu.CacheReadInputTokens)
	case "cacheCreationInputTokens":
		ok = once(seen, 8) && d.int(&mu.CacheCreationInputTokens)
	default:
		return d.skip(0)
	}
	d.line.ModelUsage[d.curModel] = mu
	return ok
}

// float decodes a number without an exponent into dst (null leaves it).
func (d *fastDecoder) float(dst *float64) bool {
	if d.null() {
		return true
	}
	start := d.i
	if !d.number() {
		return false
	}
	text := d.b[start:d.i]
	if bytes.IndexAny(text, "eE") >= 0 {
		return false // sonic decides about range
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	if err != nil {
		return false
	}
	*dst = v
	return true
}

// toolInput decodes a tool's input object into in; ok is false when sonic
// must decide. It uses d's cursor, not its line: call it on a decoder of its
// own.
func (d *fastDecoder) toolInput(raw []byte, in *rawToolInput) bool {
	d.start(raw)
	d.in = in
	*in = rawToolInput{}
	d.ws()
	if !d.object(kToolInput, 0) {
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

const (
	tFilePath = 1 << iota
	tNotebookPath
	tPath
	tCommand
	tDescription
	tPrompt
	tSubagentType
	tTodos
	tSubject
	tTaskID
	tStatus
)

func (d *fastDecoder) toolInputField(key []byte, seen *uint64) bool {
	in := d.in
	switch string(key) {
	case "file_path":
		return once(seen, tFilePath) && d.str(&in.FilePath)
	case "notebook_path":
		return once(seen, tNotebookPath) && d.str(&in.NotebookPath)
	case "path":
		return once(seen, tPath) && d.str(&in.Path)
	case "command":
		return once(seen, tCommand) && d.str(&in.Command)
	case "description":
		return once(seen, tDescription) && d.str(&in.Description)
	case "prompt":
		return once(seen, tPrompt) && d.str(&in.Prompt)
	case "subagent_type":
		return once(seen, tSubagentType) && d.str(&in.SubagentType)
	case "todos":
		return once(seen, tTodos) && d.todos()
	case "subject":
		return once(seen, tSubject) && d.str(&in.Subject)
	case "taskId":
		return once(seen, tTaskID) && d.str(&in.TaskID)
	case "status":
		return once(seen, tStatus) && d.str(&in.Status)
	}
	return d.skip(0)
}

func (d *fastDecoder) todos() bool {
	if d.null() {
		return true
	}
	if d.peek() != '[' {
		return false
	}
	d.i++
	d.in.Todos = []rawTodo{}
	d.ws()
	if d.peek() == ']' {
		d.i++
		return true
	}
	for {
		if d.peek() != '{' {
			return false
		}
		d.in.Todos = append(d.in.Todos, rawTodo{})
		if !d.object(kTodo, 0) {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
			d.ws()
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}

func (d *fastDecoder) todoField(key []byte, seen *uint64) bool {
	td := &d.in.Todos[len(d.in.Todos)-1]
	switch string(key) {
	case "content":
		return once(seen, 1) && d.str(&td.Content)
	case "status":
		return once(seen, 2) && d.str(&td.Status)
	case "activeForm":
		return once(seen, 4) && d.str(&td.ActiveForm)
	}
	return d.skip(0)
}

// agentMeta decodes a subagent's .meta.json; ok is false when sonic must
// decide.
func (d *fastDecoder) agentMeta(b []byte, m *rawAgentMeta) bool {
	d.start(b)
	d.meta = m
	*m = rawAgentMeta{}
	d.ws()
	if !d.object(kAgentMeta, 0) {
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

func (d *fastDecoder) agentMetaField(key []byte, seen *uint64) bool {
	switch string(key) {
	case "agentType":
		return once(seen, 1) && d.str(&d.meta.AgentType)
	case "description":
		return once(seen, 2) && d.str(&d.meta.Description)
	}
	return d.skip(0)
}

// resultContent decodes a tool result's content (a string or a list of
// blocks) into d.blocks, a string with escapes unquoted onto textBuf; ok is
// false when sonic must decide. Like toolInput it needs a decoder of its own.
func (d *fastDecoder) resultContent(raw []byte) bool {
	d.start(raw)
	clear(d.blocks)
	d.blocks = d.blocks[:0]
	d.ws()
	switch d.peek() {
	case '"':
		q, esc, ok := d.quoted()
		if !ok {
			return false
		}
		s := unsafe.String(unsafe.SliceData(q), len(q))
		if esc {
			if s, ok = d.borrowUnquote(q); !ok {
				return false
			}
		}
		d.blocks = append(d.blocks, rawBlock{Type: "text", Text: s})
	case '[':
		if !d.blockList() {
			return false
		}
	default:
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

// borrowText is b's text, unquoted onto textBuf when it is still quoted
// (see borrowUnquote); b keeps it, for as long as its line.
func (d *fastDecoder) borrowText(b *rawBlock) string {
	if q := b.escapedText; q != nil {
		if t, ok := d.borrowUnquote(q[1 : len(q)-1]); ok {
			b.Text, b.escapedText = t, nil
		}
	}
	return b.text()
}

// borrowUnquote unquotes the inside of a string with escapes onto textBuf:
// the text lives until textBuf is reset, for the next line.
func (d *fastDecoder) borrowUnquote(inside []byte) (string, bool) {
	from := len(d.textBuf)
	buf, ok := transcript.AppendUnquote(d.textBuf, inside)
	if !ok {
		return "", false
	}
	d.textBuf = buf
	if len(buf) == from {
		return "", true
	}
	return unsafe.String(&buf[from], len(buf)-from), true
}

// object reads an object, calling field for each member with the cursor on
// its value; field reads or skips the value. An escaped key of an object
// whose members are read declines.
func (d *fastDecoder) object(k objKind, depth int) bool {
	if d.peek() != '{' {
		return false
	}
	d.i++
	d.ws()
	if d.peek() == '}' {
		d.i++
		return true
	}
	var seen uint64
	for {
		key, esc, ok := d.listed()
		if !ok {
			key, esc, ok = d.search()
		}
		if !ok || esc && k != kSkip { // sonic unescapes the keys it matches
			return false
		}
		d.ws()
		if d.peek() != ':' {
			return false
		}
		d.i++
		d.ws()
		if !d.field(k, key, &seen, depth) {
			return false
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.i++
			d.ws()
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

func once(seen *uint64, bit uint64) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

func (d *fastDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

func (d *fastDecoder) ws() {
	if d.i < len(d.b) && d.b[d.i] > ' ' {
		return // Claude Code writes no blanks between tokens: one test, inlined
	}
	d.blanks()
}

// blanks skips the blanks ws found.
func (d *fastDecoder) blanks() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// null consumes a null literal, if one is next.
func (d *fastDecoder) null() bool {
	if hasWord(d.b, d.i, "null") {
		d.i += 4
		if d.end() {
			return true
		}
		d.i -= 4
	}
	return false
}

// quoted reads a string and returns its bytes between the quotes, and whether
// they hold an escape. The closing quote is the first one not escaped: one
// preceded by an even run of backslashes. Like sonic's skipping, it does not
// look inside the string. Its end comes from the quote list when the list
// has it (listed), else from a search (search).
func (d *fastDecoder) quoted() (s []byte, esc bool, ok bool) {
	if s, esc, ok = d.listed(); ok {
		return s, esc, true
	}
	return d.search()
}

// listed is quoted when the line's quote list has the string at d.i, and
// ok false (nothing read) when it has not. The line's strings are met in
// order, so the next entry of the list is this string's opening quote and
// the one after it its closing quote; an entry that is not d.i (no list, or
// a quote the list holds with a backslash before it, which only a line that
// is not JSON has) leaves the string to search. Small enough to be inlined
// where the decoder reads most strings: keys and skipped values.
func (d *fastDecoder) listed() (s []byte, esc bool, ok bool) {
	k := d.next
	if k+1 >= len(d.quotes) || d.quotes[k] != uint32(d.i) {
		return nil, false, false
	}
	e := d.quotes[k+1]
	q := int(e & transcript.QuoteOffset)
	s, d.i, d.next = d.b[d.i+1:q], q+1, k+2
	return s, int32(e) < 0, true // QuoteEscaped
}

// search is quoted without the quote list.
func (d *fastDecoder) search() (s []byte, esc bool, ok bool) {
	if d.peek() != '"' {
		return nil, false, false
	}
	q, esc := transcript.ClosingQuote(d.b, d.i)
	if q < 0 {
		return nil, false, false
	}
	s, d.i = d.b[d.i+1:q], q+1
	return s, esc, true
}

// str decodes a string value into dst (null leaves it as is). A string
// without escapes aliases the line, as sonic's strings do; one with escapes is
// a copy, unquoted as sonic unquotes.
func (d *fastDecoder) str(dst *string) bool {
	if d.null() {
		return true
	}
	s, esc, ok := d.quoted()
	if !ok {
		return false
	}
	if !esc {
		*dst = unsafe.String(unsafe.SliceData(s), len(s))
		if len(s) == 0 {
			*dst = ""
		}
		return true
	}
	u, ok := transcript.Unquote(s)
	if ok {
		*dst = u
	}
	return ok
}

// lazyStr is str, except that a string with escapes is left quoted in
// escaped for its reader to unquote when it needs it. Its escapes are checked
// now, so a line sonic would reject is declined here too.
func (d *fastDecoder) lazyStr(dst *string, escaped *[]byte) bool {
	if d.null() {
		return true
	}
	start := d.i
	s, esc, ok := d.quoted()
	if !ok {
		return false
	}
	if esc {
		*escaped = d.b[start:d.i]
		return validEscapes(s)
	}
	*dst = unsafe.String(unsafe.SliceData(s), len(s))
	return true
}

// validEscapes reports whether every escape of a string's inside is one
// JSON has: \" \\ \/ \b \f \n \r \t or \u and four hex digits.
func validEscapes(s []byte) bool {
	for {
		k := bytes.IndexByte(s, '\\')
		if k < 0 {
			return true
		}
		if k+1 >= len(s) {
			return false
		}
		switch s[k+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s = s[k+2:]
		case 'u':
			if k+6 > len(s) {
				return false
			}
			for _, c := range s[k+2 : k+6] {
				if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
					return false
				}
			}
			s = s[k+6:]
		default:
			return false
		}
	}
}

func (d *fastDecoder) bool(dst *bool) bool {
	switch {
	case hasWord(d.b, d.i, "true"):
		*dst = true
		d.i += 4
	case hasWord(d.b, d.i, "false"):
		*dst = false
		d.i += 5
	case hasWord(d.b, d.i, "null"):
		d.i += 4
	default:
		return false
	}
	return d.end()
}

// hasWord reports whether b holds word at i. Inlined with a constant word,
// the comparison is a load or two and no call (bytes.HasPrefix calls the
// runtime's memequal for every value str, int and bool are given, to find
// the rare null).
func hasWord(b []byte, i int, word string) bool {
	return len(b)-i >= len(word) && string(b[i:i+len(word)]) == word
}

// end reports whether a literal or number stops where a value may stop.
func (d *fastDecoder) end() bool {
	switch d.peek() {
	case ',', '}', ']', ' ', '\t', '\n', '\r', 0:
		return true
	}
	return false
}

// int decodes an integer value into dst (null leaves it as is).
func (d *fastDecoder) int(dst *int64) bool {
	if d.null() {
		return true
	}
	return d.intStrict(dst)
}

// intStrict decodes a plain integer that fits int64; anything else (a
// fraction, an exponent, a string, out of range) declines, since sonic
// reports it as drift.
func (d *fastDecoder) intStrict(dst *int64) bool {
	j := d.i
	neg := false
	if j < len(d.b) && d.b[j] == '-' {
		neg = true
		j++
	}
	digits := j
	var n uint64
	for j < len(d.b) && d.b[j] >= '0' && d.b[j] <= '9' {
		if j-digits >= 18 {
			return false // may not fit: sonic decides
		}
		n = n*10 + uint64(d.b[j]-'0')
		j++
	}
	if j == digits || (d.b[digits] == '0' && j-digits > 1) {
		return false
	}
	d.i = j
	if !d.end() {
		return false
	}
	if neg {
		*dst = -int64(n)
	} else {
		*dst = int64(n)
	}
	return true
}

// raw keeps a value's bytes, as sonic.NoCopyRawMessage does.
func (d *fastDecoder) raw(dst *[]byte) bool {
	start := d.i
	if !d.skip(0) {
		return false
	}
	*dst = d.b[start:d.i]
	return true
}

// skip passes over one value, checking its grammar the way sonic's skipping
// does: structure, literals and numbers strictly, the inside of strings not.
func (d *fastDecoder) skip(depth int) bool {
	switch c := d.peek(); {
	case c == '"':
		if _, _, ok := d.listed(); ok {
			return true
		}
		_, _, ok := d.search()
		return ok
	case c == '{':
		if depth >= maxDepth {
			return false
		}
		return d.object(kSkip, depth)
	case c == '[':
		if depth >= maxDepth {
			return false
		}
		d.i++
		d.ws()
		if d.peek() == ']' {
			d.i++
			return true
		}
		for {
			if !d.skip(depth + 1) {
				return false
			}
			d.ws()
			switch d.peek() {
			case ',':
				d.i++
				d.ws()
			case ']':
				d.i++
				return true
			default:
				return false
			}
		}
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	}
	return false
}

func (d *fastDecoder) literal(word string) bool {
	if !hasWord(d.b, d.i, word) {
		return false
	}
	d.i += len(word)
	return d.end()
}

// number passes over a number of JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *fastDecoder) number() bool {
	b, j := d.b, d.i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
	default:
		return false
	}
	if j < len(b) && b[j] == '.' {
		j++
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == k {
			return false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == k {
			return false
		}
	}
	d.i = j
	return d.end()
}
