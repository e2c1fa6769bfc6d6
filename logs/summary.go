package logs

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"iter"
	"maps"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/agent-activity/agent-activity/transcript"
)

// Usage is the token usage of one API response, or a sum of them.
type Usage = transcript.Usage

// The file layouts, result states and file actions are the readers' own.
type (
	FileKind    = transcript.FileKind
	ResultState = transcript.ResultState
	FileAction  = transcript.FileAction
)

const (
	MainFile        = transcript.MainFile
	SubagentFile    = transcript.SubagentFile
	LegacyAgentFile = transcript.LegacyAgentFile

	ActionNone  = transcript.ActionNone
	ActionRead  = transcript.ActionRead
	ActionEdit  = transcript.ActionEdit
	ActionWrite = transcript.ActionWrite
)

// Message is one assistant message as a file shows it: for usage, the copy
// with the largest output_tokens among the file's lines that share its
// message.id (ties: the last).
type Message struct {
	Key       uint64 // hash of message.id; 0 for a line without one (it counts on its own)
	Model     string
	Time      int64 // unix milliseconds of the response's first line
	Usage     Usage
	Sidechain bool                 // no copy was on the main thread
	Synthetic bool                 // <synthetic> or isApiErrorMessage: an API error, not usage
	HasUsage  bool                 // some copy carried a usage object
	Line      int32                // physical, 1-based line number of the first copy
	Advisors  []transcript.Advisor // second models consulted inside the response (winning copy)
}

// Counts reports whether the message is model usage.
func (m *Message) Counts() bool { return m.HasUsage && !m.Synthetic }

// Call is one tool_use block joined to its result in the same file. Only a
// hash of its id is kept in memory for most calls; tools that show ids
// re-read the file. A file tool's path and id sit beside the call (files),
// so the other calls (three in five) do not carry their room.
type Call struct {
	Key    uint64 // IDKey of the tool_use id
	Msg    uint64 // Key of the response that carries it (0: none); a copied call travels with a copied response
	Time   int64
	Target uint64 // what the call acted on, for "the same call again" (see classifyCall)
	Line   int32
	name   uint32 // nameID of the tool's name (Name)
	// The small fields share one word.
	Sidechain bool
	Action    FileAction // how Path was touched
	Result    ResultState
	Kinds     CommandKinds // what a shell call's command does (see classifyCall)
	files     *callFiles   // nil unless Action is set
}

// callFiles is what a file tool's call keeps beside it. It is never changed
// once made: copies of a Call share it. The tool_use id is kept in place:
// ids are 30 bytes (Claude Code's toolu_ ids; Codex's call_ ids are 29), so
// a call keeps one 64-byte object, not that and a string of 32 (4.8 MB and
// 150,000 objects at 4 GB). A longer id, and the further files of a patch,
// are in extra.
type callFiles struct {
	path  string     // the file path
	extra *callExtra // nil for most calls
	idLen uint8
	idBuf [callIDLen]byte // the tool_use id (file_activity shows it), when it fits
}

const callIDLen = 30

// callExtra is what few file calls have.
type callExtra struct {
	id   string                // a tool_use id longer than callIDLen
	more []transcript.CallFile // further files touched (a patch of several files)
}

// newCallFiles fills cf (a zero record) and returns it.
func newCallFiles(cf *callFiles, path, id string, more []transcript.CallFile) *callFiles {
	cf.path = path
	if len(id) <= callIDLen {
		cf.idLen = uint8(copy(cf.idBuf[:], id))
	}
	if len(id) > callIDLen || len(more) > 0 {
		cf.extra = &callExtra{more: more}
		if len(id) > callIDLen {
			cf.extra.id = id
		}
	}
	return cf
}

// Name is the name of the call's tool.
func (c *Call) Name() string { return nameOf(c.name) }

// Path is the file path of a file tool's call ("" for other calls).
func (c *Call) Path() string {
	if c.files == nil {
		return ""
	}
	return c.files.path
}

// ID is the tool_use id, kept for file tools' calls only ("" for others).
func (c *Call) ID() string {
	cf := c.files
	switch {
	case cf == nil:
		return ""
	case cf.extra != nil && cf.extra.id != "":
		return cf.extra.id
	case cf.idLen == 0:
		return ""
	}
	// The bytes never change once made (callFiles is shared, never
	// written), so the string can be them.
	return unsafe.String(&cf.idBuf[0], int(cf.idLen))
}

// More lists the further files a call touched (a patch of several files).
func (c *Call) More() []transcript.CallFile {
	if c.files == nil || c.files.extra == nil {
		return nil
	}
	return c.files.extra.more
}

// Touches yields the path and action of each file the call touched: Path
// first, then the further files.
func (c *Call) Touches() iter.Seq2[string, FileAction] {
	return func(yield func(string, FileAction) bool) { c.eachTouch(yield) }
}

// eachTouch is Touches for a loop that is itself inside an iterator, where
// ranging over Touches made an iterator and a loop body on the heap for
// each call (8 MB of a file_activity "**/*" over the 4 GB history): fn,
// which does not escape, stays on the caller's stack. It reports whether
// fn asked for every touch.
func (c *Call) eachTouch(fn func(string, FileAction) bool) bool {
	if c.Action == ActionNone {
		return true
	}
	if !fn(c.Path(), c.Action) {
		return false
	}
	for _, m := range c.More() {
		if !fn(m.Path, m.Action) {
			return false
		}
	}
	return true
}

// SummaryLine is a `summary` line: a title plus the uuid of the line it describes.
type SummaryLine struct {
	Text string
	Leaf string
}

// CostState is the token account Claude Code 2.1.328+ writes at session end.
type CostState struct {
	Models map[string]Usage // model -> tokens (5m holds all cache creation)
}

// FileSummary is everything agent-activity keeps about one transcript file.
// It is built by one pass over the file and extended from Offset when the
// file grows. A FileSummary published in a Snapshot is never mutated:
// extension works on a copy (see clone).
type FileSummary struct {
	transcript.File
	agent transcript.Agent
	no    uint32 // the summary's number (fileNumbers); its clones keep it

	Size    int64
	ModTime time.Time
	Offset  int64 // bytes consumed: every complete line before it has been read
	phys    int   // physical lines before Offset

	Lines       int  // non-blank lines consumed, torn tail excluded
	Entries     int  // lines decoded as JSON objects
	Skipped     int  // undecodable complete lines
	Torn        bool // an unterminated, undecodable last line is pending
	SawEnvelope bool // some line carried both sessionId and timestamp
	Drift       bool // lines with an unexpected shape were seen

	Start, End int64 // unix ms over every timestamp; 0 when none

	Cwd       string // first cwd seen
	GitBranch string // last non-empty gitBranch seen
	Versions  []string

	*readState                  // during a read (and between reads of a hot file); nil otherwise
	messages         messageLog // between reads of a file that is not hot: the messages, packed
	hot              bool       // the last read was of an append: msgs and the lookups stay open for the next
	namesUncounted   bool       // a call goes with a message of the file that is no response (see namedElsewhere)
	provisional      []zeroCopy // zero copies the last read made responses of their own; the next read takes them back
	MainAssistantIDs int        // distinct message ids of main-thread assistant lines
	HumanPrompts     int
	FirstPrompt      string // raw (unredacted), clipped
	APIErrors        int

	Calls   []Call
	orphans map[uint64]ResultState // results seen before their call (lines are not in order)

	lastReply lastReply    // the main-thread message latest in the file
	home      *sessionHome // where the latest snapshot's session of the file is (extensions find it there)

	// A clone shares the lists of the summary it was cloned from: their
	// first sharedMsgs and sharedCalls elements are the predecessor's too,
	// and are copied before a write (msgAt, callAt, pushMsg). Appends go
	// past the predecessor's length, which it never reads.
	sharedMsgs, sharedCalls int

	Summaries   []SummaryLine
	leaves      map[uint64]bool // summary leafUuids -> seen as a line of this file
	lateLeaf    bool            // a summary came after other lines: earlier lines need a look
	CustomTitle string
	AITitle     string
	PRLinks     []string
	Compactions int
	CostState   *CostState
	tools       []toolCount // calls by tool name, in order of first call
	ReadError   string      // the last I/O error reading the file, if any

	id    transcript.FileID // a file replaced by rename has a new identity
	marks fileMarks         // the first bytes and those just before Offset, to notice a replacement or a rewrite
}

// fileMarks stands for two runs of a file's bytes by their lengths and
// hashes: its first bytes (to notice a replacement) and the bytes just
// before Offset (to notice a rewrite), transcript.MarkLen at most of each.
// Hashes, not copies: 256 bytes a file were 3.9 MB of a 4 GB history's
// 114 MB of summaries. A look reads the bytes again to compare them.
type fileMarks struct {
	head, tail       uint64 // markHash of the bytes
	headLen, tailLen uint16
}

// markHash hashes a mark's bytes (the process's seed: marks never leave it).
func markHash(b []byte) uint64 { return maphash.Bytes(idSeed, b) }

// markMatches reports whether b are the bytes the mark (hash h of n bytes)
// stands for: a short or failed read never matches.
func markMatches(b []byte, h uint64, n uint16) bool {
	return b != nil && len(b) == int(n) && markHash(b) == h
}

// readState is what a read of a file works with: the messages open to
// change and the lookups that find the copies it meets again. A summary
// holds it only while it is read, and between the reads of a hot file (most
// summaries are of files that do not grow).
type readState struct {
	msgs           []Message         // the messages, open to change
	prov           []Message         // after msgs: the responses the last read made of zero copies (provisional), which the next takes back
	msgIdx         map[uint64]int32  // response identity -> index in msgs
	lastByID       map[uint64]int32  // during a read: hash of message.id alone -> the latest message with it
	zeroCopies     []zeroCopy        // all-zero usage copies waiting for the copy they belong to
	callIdx        map[uint64]int32  // hash of tool_use id -> index in Calls
	paths          map[string]string // during a read: the file paths of its calls, one string each
	scratch        *readScratch      // a read from the file's start: where its lists and lookups came from, and go back to
	callsInScratch bool              // Calls is the scratch's list: the read copies it out at its end
}

func readAt(fh *os.File, off, n int64) []byte {
	buf := make([]byte, n)
	if m, _ := fh.ReadAt(buf, off); int64(m) == n {
		return buf
	}
	return nil
}

// unchangedPrefix reports whether the bytes read before are still in place:
// same identity, same first bytes, same bytes just before Offset. When they
// are, tail is those last bytes (nil when Offset is 0), which the read of
// what was appended goes on from (Lines.Resume).
func (f *FileSummary) unchangedPrefix(fi transcript.FileInfo) (tail []byte, ok bool) {
	if f.id != fi.ID {
		return nil, false
	}
	if f.Offset == 0 {
		return nil, true
	}
	if f.marks.headLen == 0 || f.marks.tailLen == 0 {
		return nil, false
	}
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	m := &f.marks
	tail = readAt(fh, f.Offset-int64(m.tailLen), int64(m.tailLen))
	if !markMatches(readAt(fh, 0, int64(m.headLen)), m.head, m.headLen) || !markMatches(tail, m.tail, m.tailLen) {
		return nil, false
	}
	return tail, true
}

// idSeed hashes ids for in-memory indexes: 64-bit keys instead of strings
// keep memory flat (a collision among a few million ids is negligible).
var idSeed = maphash.MakeSeed()

func idHash(s string) uint64 { return maphash.String(idSeed, s) | 1 }

// IDKey is the in-memory key of a message or tool_use id (never 0).
func IDKey(id string) uint64 { return idHash(id) }

// HasUUID reports whether a line with this uuid is in the file; it answers for
// the leafUuids of the file's summary lines only.
func (f *FileSummary) HasUUID(u string) bool { return f.leaves[idHash(u)] }

// IsSidechainFile reports whether every line of the file is sidechain activity.
func (f *FileSummary) IsSidechainFile() bool { return f.Kind != MainFile }

func newFileSummary(d discovered) *FileSummary {
	return &FileSummary{File: d.File, agent: d.agent, no: fileNumbers.Add(1)}
}

// fileNumbers numbers the summaries the process makes, from 1: a summary
// and its clones (the same file, extended) share a number, which is how a
// response names the file it was read in (Response.file) without a pointer.
var fileNumbers atomic.Uint32

// SubagentMeta is what the file's sidecar says of a subagent (its type and
// task), read now: "" for each when there is none.
func (f *FileSummary) SubagentMeta() (agentType, description string) {
	return f.agent.SubagentMeta(&f.File)
}

// clone returns a copy that can be extended without touching f. The lists
// of calls and of open messages are shared, not copied: an extension appends
// past f's length and copies a list before it changes an element of f's
// (sharedMsgs, sharedCalls). A hot f's lookups move to the clone, since only
// a read needs them and f is read no more: its successor is; if that read
// fails, the next clone of f rebuilds them (openIndexes).
func (f *FileSummary) clone() *FileSummary {
	c := *f
	c.Versions = append([]string(nil), f.Versions...) // the packed messages are shared: a read unpacks its own
	c.sharedCalls, c.sharedMsgs = len(f.Calls), 0
	c.provisional = append([]zeroCopy(nil), f.provisional...)
	c.Summaries = append([]SummaryLine(nil), f.Summaries...)
	c.PRLinks = append([]string(nil), f.PRLinks...)
	c.orphans = maps.Clone(f.orphans)
	c.leaves = maps.Clone(f.leaves)
	c.tools = slices.Clone(f.tools)
	if f.readState != nil { // hot: the clone takes the read's state, its lists shared, its lookups moved
		rs := *f.readState
		c.readState, c.sharedMsgs = &rs, len(f.msgs)
		f.msgIdx, f.callIdx = nil, nil
	}
	return &c
}

// msgAt is the open message i, to be changed: a message f shares with the
// summary it was cloned from is first made f's own, with the whole list.
// Positions past msgs are those of prov.
func (f *FileSummary) msgAt(i int32) *Message {
	if int(i) >= len(f.msgs) {
		return &f.prov[int(i)-len(f.msgs)]
	}
	f.msgs = writable(f.msgs, &f.sharedMsgs, int(i))
	return &f.msgs[i]
}

// pushMsg appends an open message; the slot it fills is f's own.
func (f *FileSummary) pushMsg(m Message) {
	f.msgs = append(writable(f.msgs, &f.sharedMsgs, len(f.msgs)), m)
}

// callAt is call i, to be changed, made f's own first as msgAt does.
func (f *FileSummary) callAt(i int32) *Call {
	f.Calls = writable(f.Calls, &f.sharedCalls, int(i))
	return &f.Calls[i]
}

// writable returns list ready for a write at i: when i is among its first
// *shared elements, which the summary it was cloned from holds too, a copy
// of the list that is f's own (and *shared becomes 0).
func writable[T any](list []T, shared *int, i int) []T {
	if i < *shared {
		list, *shared = append(make([]T, 0, cap(list)), list...), 0
	}
	return list
}

// cooled returns a copy of a hot summary with its messages packed and its
// lookups dropped, as every other summary keeps them.
func (f *FileSummary) cooled() *FileSummary {
	c := f.clone()
	c.hot = false
	c.messages = packMessages(c.msgs, c.prov)
	c.readState = nil
	c.Calls, c.sharedMsgs = clipSlice(c.Calls), 0
	return c
}

// callFilesSlot is a zero record for a file call: the next of the
// scratch's chunk when the read took a scratch (see readScratch.files),
// else one of its own. A read takes one when the summary was not hot: a
// read from the file's start, or the first read of a file that grows, which
// keeps that scratch while the file is hot. Either way the records are
// made once and held for good, as the strings of clip and keep are.
func (f *FileSummary) callFilesSlot() *callFiles {
	if sc := f.readScratch(); sc != nil {
		return sc.files.next()
	}
	return new(callFiles)
}

// readScratch is the scratch of the read under way, nil when it took none.
func (f *FileSummary) readScratch() *readScratch {
	if f.readState == nil {
		return nil
	}
	return f.scratch
}

// clip is transcript.Clip(x, max) for the summary to keep: when the read
// took a scratch, copied into the scratch's chunk of kept strings.
func (f *FileSummary) clip(x string, max int) string {
	if sc := f.readScratch(); sc != nil {
		return sc.keep(transcript.ClipView(x, max))
	}
	return transcript.Clip(x, max)
}

// keep is strings.Clone(x), or x copied into the scratch's chunk as clip does.
func (f *FileSummary) keep(x string) string {
	if sc := f.readScratch(); sc != nil {
		return sc.keep(x)
	}
	return strings.Clone(x)
}

// keptCalls is the list of Calls to keep at the end of a read from the
// file's start: a copy of the scratch's at its length (which the scratch
// keeps for the next read), or the list clipped.
func (f *FileSummary) keptCalls() []Call {
	if !f.callsInScratch {
		return clipSlice(f.Calls)
	}
	f.scratch.calls, f.callsInScratch = f.Calls, false
	return callSlab.copyOf(f.Calls)
}

// clipSlice drops unused capacity left by append's growth: summaries live as
// long as the process, so the slack would be memory held for nothing.
func clipSlice[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return append([]T(nil), s...)
}

// openEntries opens f and returns a reader of its entries from its start.
// The caller closes both.
func (f *FileSummary) openEntries(ctx context.Context) (*os.File, transcript.EntryReader, error) {
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return nil, nil, err
	}
	return fh, f.agent.NewReader(ctx, fh, 0, 0), nil
}

// eachEntry calls fn for every decodable entry of f, oldest first, with the
// parts of want filled, until fn returns false. A torn last line that does
// not decode is not an entry. The entry is valid during the call only.
func (f *FileSummary) eachEntry(ctx context.Context, want transcript.Want, fn func(e *transcript.Entry) bool) error {
	return f.eachEntryLazy(ctx, func(er transcript.EntryReader, e *transcript.Entry) bool {
		if want != 0 {
			e, _ = er.Entry(want)
		}
		return fn(e)
	})
}

// eachEntryLazy is eachEntry for passes that decide from the always-filled
// parts whether to ask er.Entry for more.
func (f *FileSummary) eachEntryLazy(ctx context.Context, fn func(er transcript.EntryReader, e *transcript.Entry) bool) error {
	fh, er, err := f.openEntries(ctx)
	if err != nil {
		return err
	}
	defer fh.Close()
	defer er.Close()
	for er.Scan() {
		if e, ok := er.Entry(0); ok && !fn(er, e) {
			break
		}
	}
	return er.Err()
}

// scanFile reads f's file from f.Offset to its end and folds every complete
// line into f; tail is the bytes just before f.Offset (unchangedPrefix's),
// nil when it is 0. Decode problems are counted, never returned; only I/O
// errors and a cancelled ctx are (the caller then discards f).
func (f *FileSummary) scanFile(ctx context.Context, fi transcript.FileInfo, tail []byte, hook lineHook) error {
	fh, err := f.Root.Open(f.Path)
	if err != nil {
		return err
	}
	defer fh.Close()
	if f.Offset > 0 {
		if _, err := fh.Seek(f.Offset, 0); err != nil {
			return err
		}
	}
	f.Size, f.ModTime, f.id = fi.Size, fi.ModTime, fi.ID
	f.Torn = false
	f.openIndexes()
	f.hot = f.Offset > 0 // a file that grows is read again soon: keep what its reads need
	defer f.closeIndexes()
	er := f.agent.NewReader(ctx, fh, f.Offset, f.phys)
	defer er.Close()
	lines := er.Lines()
	if f.Offset > 0 {
		lines.Resume(tail)
	}
	var seeLine func(transcript.EntryReader)
	if hook != nil {
		seeLine = hook(f)
	}
	for er.Scan() {
		if seeLine != nil { // before the line is taken: the hook sees every line, a torn or undecodable one too
			seeLine(er)
		}
		e, ok := er.Entry(0)
		if !ok {
			if lines.Torn() {
				// Possibly being written right now: leave it for the next look.
				f.Torn = true
				break
			}
			f.Lines++
			f.Skipped++
			f.Drift = true
			lines.Commit()
			continue
		}
		f.Lines++
		lines.Commit()
		f.fold(e)
	}
	f.settleZeroCopies()
	f.noteLastReply()
	f.paths = nil
	f.Offset, f.phys = lines.Consumed()
	head, end := lines.Marks()
	if head != nil { // read from the start; else the head is the earlier read's
		f.marks.head, f.marks.headLen = markHash(head), uint16(len(head))
	}
	f.marks.tail, f.marks.tailLen = markHash(end), uint16(len(end))
	if !f.hot { // a read from the file's start, once per file: its lists are kept dense
		f.Calls = f.keptCalls()
		f.tools = toolSlab.copyOf(f.tools)
	} else { // a hot file's next read appends to them; cooling clips its calls
		f.tools = clipSlice(f.tools)
	}
	if f.lateLeaf {
		f.resolveLeaves(ctx)
	}
	return er.Err()
}

// lastReply is a file's main-thread message with the largest line (the
// last in the list among equals): zero copies settle at the end of a read,
// out of line order.
type lastReply struct {
	line      int32
	time      int64
	synthetic bool
	ok        bool // the file has a main-thread message
}

// noteLastReply finds lastReply at the end of a read, while the messages are
// open, so that outcomes need not walk them.
func (f *FileSummary) noteLastReply() {
	f.lastReply = lastReply{}
	for _, list := range [2][]Message{f.msgs, f.prov} {
		for i := range list {
			if m := &list[i]; !m.Sidechain && (!f.lastReply.ok || m.Line >= f.lastReply.line) {
				f.lastReply = lastReply{line: m.Line, time: m.Time, synthetic: m.Synthetic, ok: true}
			}
		}
	}
}

// openIndexes builds the lookups a read needs to find the copies it meets
// again: they cost as much as the summary's own lists, so between reads they
// are dropped and rebuilt from the messages and Calls, except for a hot file,
// whose reads keep them open.
func (f *FileSummary) openIndexes() {
	if f.hot { // kept open by the last read
		f.reopenZeroCopies()
		if f.msgIdx == nil { // moved to a clone whose read failed
			f.indexOpen()
		}
		return
	}
	sc := takeScratch()
	f.readState, f.sharedMsgs = &readState{msgs: f.messages.unpackInto(sc.msgs), msgIdx: sc.msgIdx, callIdx: sc.callIdx,
		lastByID: sc.lastByID, paths: sc.paths, scratch: sc}, 0
	if len(f.Calls) == 0 {
		f.Calls, f.callsInScratch = sc.calls, true
	}
	f.reopenZeroCopies()
	f.indexOpen()
}

// indexOpen builds the lookups of the open messages and of the calls.
func (f *FileSummary) indexOpen() {
	if f.msgIdx == nil { // else the scratch's, empty
		f.msgIdx = make(map[uint64]int32, len(f.msgs))
	}
	for i := range f.msgs {
		if k := f.msgs[i].Key; k != 0 {
			f.msgIdx[k] = int32(i)
		}
	}
	if f.callIdx == nil {
		f.callIdx = make(map[uint64]int32, len(f.Calls))
	}
	for i := range f.Calls {
		f.callIdx[f.Calls[i].Key] = int32(i)
	}
}

func (f *FileSummary) closeIndexes() {
	f.noteUncounted()
	if f.hot {
		return
	}
	f.messages = packMessagesDense(f.msgs, f.prov) // not hot: a read from the file's start
	if sc := f.scratch; sc != nil {
		sc.msgs = nil
		if f.sharedMsgs == 0 {
			sc.msgs = f.msgs // f's own, and nothing holds it once packed
		}
		sc.give()
	}
	f.readState = nil
}

// noteUncounted sets namesUncounted at the end of a read. Such a call is
// rare (its message is an API error's, or a copy without usage): it belongs
// to whichever file has that message's response, which another file can
// bring.
func (f *FileSummary) noteUncounted() {
	f.namesUncounted = false
	var keys []uint64
	for _, list := range [2][]Message{f.msgs, f.prov} {
		for i := range list {
			if m := &list[i]; m.Key != 0 && !m.Counts() {
				keys = append(keys, m.Key)
			}
		}
	}
	if len(keys) == 0 {
		return
	}
	for i := range f.Calls {
		if slices.Contains(keys, f.Calls[i].Msg) {
			f.namesUncounted = true
			return
		}
	}
}

// Messages yields the file's messages in order (a summary between reads).
func (f *FileSummary) Messages() iter.Seq2[int, Message] {
	if f.hot {
		return func(yield func(int, Message) bool) {
			l := f.messageList()
			for i := range l.Len() {
				if !yield(i, *l.At(i)) {
					return
				}
			}
		}
	}
	return f.messages.All()
}

// numMessages is the number of messages, with the advisors they consulted.
func (f *FileSummary) numMessages() (messages, advisors int) {
	if !f.hot {
		for _, a := range f.messages.advisors {
			advisors += len(a)
		}
		return f.messages.Len(), advisors
	}
	l := f.messageList()
	for i := range l.Len() {
		advisors += len(l.At(i).Advisors)
	}
	return l.Len(), advisors
}

// msgList is a file's messages in order, in two parts: the open messages,
// then the provisional ones.
type msgList struct{ a, b []Message }

func (l msgList) Len() int { return len(l.a) + len(l.b) }

// At is message i, which the caller must not change.
func (l msgList) At(i int) *Message {
	if i < len(l.a) {
		return &l.a[i]
	}
	return &l.b[i-len(l.a)]
}

// messageList is the messages as a list the caller must not change.
func (f *FileSummary) messageList() msgList {
	if f.hot {
		return msgList{f.msgs, f.prov}
	}
	return msgList{a: f.messages.unpack()}
}

// resolveLeaves looks for summary leafUuids among lines read before their
// summary line. Rare: summary lines are normally the first lines of a file.
func (f *FileSummary) resolveLeaves(ctx context.Context) {
	f.lateLeaf = false
	_ = f.eachEntry(ctx, 0, func(e *transcript.Entry) bool {
		if e.UUID != "" {
			if done, ok := f.leaves[idHash(e.UUID)]; ok && !done {
				f.leaves[idHash(e.UUID)] = true
			}
		}
		return true
	})
}

// fold adds one decoded entry.
func (f *FileSummary) fold(e *transcript.Entry) {
	f.Entries++
	ts := e.Time
	if ts != 0 {
		if f.Start == 0 || ts < f.Start {
			f.Start = ts
		}
		if ts > f.End {
			f.End = ts
		}
	}
	if e.SessionID != "" && ts != 0 {
		f.SawEnvelope = true
	}
	if e.Drift {
		f.Drift = true
	}
	if f.Kind == LegacyAgentFile && f.SessionID == "" && e.SessionID != "" {
		f.SessionID = strings.Clone(e.SessionID)
	}
	if f.AgentID == "" && e.AgentID != "" {
		f.AgentID = strings.Clone(e.AgentID)
	}
	if f.Cwd == "" && e.Cwd != "" {
		f.Cwd = intern(e.Cwd)
	}
	if e.GitBranch != "" && e.GitBranch != f.GitBranch {
		f.GitBranch = intern(e.GitBranch)
	}
	if e.Version != "" && !slices.Contains(f.Versions, e.Version) {
		f.Versions = append(f.Versions, intern(e.Version))
	}
	if e.UUID != "" && f.leaves != nil {
		if h := idHash(e.UUID); !f.leaves[h] {
			if _, ok := f.leaves[h]; ok {
				f.leaves[h] = true
			}
		}
	}
	sidechain := f.Kind != MainFile || e.Sidechain
	switch {
	case e.Response != nil:
		f.foldResponse(e, sidechain)
		f.foldResults(e.Results) // an item can carry its own outcome (a Codex web search)
	case e.Role == transcript.RoleUser:
		f.foldUser(e, sidechain)
	case e.Summary != "":
		f.Summaries = append(f.Summaries, SummaryLine{Text: f.clip(e.Summary, 300), Leaf: f.keep(e.LeafUUID)})
		if f.leaves == nil {
			f.leaves = map[uint64]bool{}
		}
		if h := idHash(e.LeafUUID); !f.leaves[h] {
			f.leaves[h] = false
			if f.Entries > len(f.Summaries) {
				f.lateLeaf = true // lines before this one were not checked against it
			}
		}
	case e.CustomTitle != "":
		f.CustomTitle = f.clip(e.CustomTitle, 300)
	case e.AITitle != "":
		f.AITitle = f.clip(e.AITitle, 300)
	case e.PRURL != "":
		if !slices.Contains(f.PRLinks, e.PRURL) {
			f.PRLinks = append(f.PRLinks, f.clip(e.PRURL, 500))
		}
	case e.Compaction:
		f.Compactions++
	case len(e.CostState) > 0:
		cs := &CostState{Models: make(map[string]Usage, len(e.CostState))}
		for m, u := range e.CostState {
			cs.Models[intern(m)] = u
		}
		f.CostState = cs
	}
}

// zeroCopy is a line of a response whose usage is all zero: the proxy form
// writes its non-final copies so. It joins the next copy with the same
// message.id in the file that has usage, or, when none follows, the nearest
// one before it (SPEC §3).
type zeroCopy struct {
	id        uint64 // hash of message.id
	time      int64
	line      int32
	sidechain bool
	apiError  bool
	hasUsage  bool
	calls     []int32 // indexes in Calls of the calls the line made
}

// responseKey is a response's identity: the same message.id, the same
// requestId (absent and empty alike) and the same input-side usage make two
// lines copies of one response. Relays reuse one id for every response and
// drop requestId; their responses differ in input-side usage and stay apart.
func responseKey(r *transcript.Response) uint64 {
	var h maphash.Hash
	h.SetSeed(idSeed)
	h.WriteString(r.ID)
	h.WriteByte(0)
	h.WriteString(r.RequestID)
	var b [24]byte
	binary.LittleEndian.PutUint64(b[0:], uint64(r.Usage.Input))
	binary.LittleEndian.PutUint64(b[8:], uint64(r.Usage.CacheCreate()))
	binary.LittleEndian.PutUint64(b[16:], uint64(r.Usage.CacheRead))
	h.Write(b[:])
	return h.Sum64() | 1
}

func (f *FileSummary) foldResponse(e *transcript.Entry, sidechain bool) {
	r := e.Response
	ts, lineNo := e.Time, int32(e.Line)
	u, hasUsage := r.Usage, r.HasUsage
	first := int32(len(f.Calls))
	f.foldCalls(e, ts, sidechain, lineNo)
	if r.ID != "" && (!hasUsage || u.Total() == 0) {
		// A copy with no usage, or usage of zeros (the proxy form's early
		// copies; a Codex response's items before its token count).
		zc := zeroCopy{id: idHash(r.ID), time: ts, line: lineNo, sidechain: sidechain, apiError: r.APIError, hasUsage: hasUsage}
		for i := first; i < int32(len(f.Calls)); i++ {
			zc.calls = append(zc.calls, i)
		}
		f.zeroCopies = append(f.zeroCopies, zc)
		return
	}
	var h uint64
	i, seen := int32(0), false
	if r.ID != "" {
		h = responseKey(r)
		i, seen = f.msgIdx[h]
	}
	if seen {
		prev := f.msgAt(i)
		if hasUsage && (!prev.HasUsage || u.Output >= prev.Usage.Output) {
			prev.Usage, prev.HasUsage = u, true
			if r.Model != "" {
				prev.Model = f.internModel(r.Model)
			}
			if len(r.Advisors) > 0 {
				prev.Advisors = cloneAdvisors(r.Advisors)
			}
		}
		f.markCopy(prev, sidechain, r.APIError)
	} else {
		if r.ID != "" {
			i = int32(len(f.msgs))
			f.msgIdx[h] = i
		}
		f.pushMsg(Message{Key: h, Model: f.internModel(r.Model), Time: ts, Usage: u,
			Sidechain: sidechain, Synthetic: r.APIError, HasUsage: hasUsage, Line: lineNo, Advisors: cloneAdvisors(r.Advisors)})
		if !sidechain {
			f.MainAssistantIDs++
		}
		if r.APIError {
			f.APIErrors++
		}
	}
	for j := first; j < int32(len(f.Calls)); j++ {
		f.callAt(j).Msg = h
	}
	if r.ID != "" {
		if f.lastByID == nil {
			f.lastByID = map[uint64]int32{}
		}
		id := idHash(r.ID)
		f.lastByID[id] = i
		f.joinZeroCopies(id, i)
	}
}

// markCopy folds what another copy says about a known message: a copy on
// the main thread makes it a main-thread message, an API error marks it.
func (f *FileSummary) markCopy(m *Message, sidechain, apiError bool) {
	if !sidechain && m.Sidechain {
		m.Sidechain = false
		f.MainAssistantIDs++
	}
	if apiError && !m.Synthetic {
		m.Synthetic = true
		f.APIErrors++
	}
}

// joinZeroCopies folds the waiting zero copies of message id into message i.
func (f *FileSummary) joinZeroCopies(id uint64, i int32) {
	kept := f.zeroCopies[:0]
	for _, zc := range f.zeroCopies {
		if zc.id != id {
			kept = append(kept, zc)
			continue
		}
		m := f.msgAt(i)
		if zc.time != 0 && (m.Time == 0 || zc.time < m.Time) {
			m.Time = zc.time
		}
		m.Line = min(m.Line, zc.line)
		f.markCopy(m, zc.sidechain, zc.apiError)
		for _, c := range zc.calls {
			f.callAt(c).Msg = m.Key
		}
	}
	f.zeroCopies = kept
}

// settleZeroCopies ends a read: a zero copy no later copy claimed joins the
// nearest message before it with the same id, or is a response of its own.
// Own responses are provisional while the file can grow: the next read of an
// append takes them back first (reopenZeroCopies), so the copy they belong to
// can still claim them.
func (f *FileSummary) settleZeroCopies() {
	for len(f.zeroCopies) > 0 {
		zc := f.zeroCopies[0]
		if i, ok := f.lastByID[zc.id]; ok {
			f.joinZeroCopies(zc.id, i)
			continue
		}
		f.zeroCopies = f.zeroCopies[1:]
		h := zc.id ^ 0x5a5a5a5a5a5a5a5a | 1 // its own identity, apart from any keyed copy
		i := int32(len(f.msgs) + len(f.prov))
		// Kept apart from msgs, so that taking them back does not change a
		// list the summary before an extension shares.
		f.prov = append(f.prov, Message{Key: h, Time: zc.time, Sidechain: zc.sidechain, Synthetic: zc.apiError, HasUsage: zc.hasUsage, Line: zc.line})
		if !zc.sidechain {
			f.MainAssistantIDs++
		}
		if zc.apiError {
			f.APIErrors++
		}
		for _, c := range zc.calls {
			f.callAt(c).Msg = h
		}
		f.provisional = append(f.provisional, zc)
		if f.lastByID == nil {
			f.lastByID = map[uint64]int32{}
		}
		f.lastByID[zc.id] = i // later copies of the same id join it
	}
	f.zeroCopies = nil
	f.lastByID = nil // only a read in progress needs it; memory is kept for summaries
}

// reopenZeroCopies takes back the responses the last read made of zero copies
// (they are the last messages, in order: prov, or the end of msgs unpacked)
// and puts the copies back in wait.
func (f *FileSummary) reopenZeroCopies() {
	fromProv := len(f.prov) == len(f.provisional)
	for j := len(f.provisional) - 1; j >= 0; j-- {
		zc := f.provisional[j]
		var last *Message
		if fromProv {
			last = &f.prov[j]
		} else {
			last = &f.msgs[len(f.msgs)-1]
			f.msgs = f.msgs[:len(f.msgs)-1]
		}
		if !last.Sidechain {
			f.MainAssistantIDs--
		}
		if last.Synthetic {
			f.APIErrors--
		}
		f.zeroCopies = append([]zeroCopy{zc}, f.zeroCopies...)
	}
	f.provisional, f.prov = nil, nil
}

func cloneAdvisors(a []transcript.Advisor) []transcript.Advisor {
	if len(a) == 0 {
		return nil
	}
	out := make([]transcript.Advisor, len(a))
	for i, x := range a {
		out[i] = transcript.Advisor{Model: intern(x.Model), Usage: x.Usage}
	}
	return out
}

// foldCalls records the tool calls of an entry, each once per file.
func (f *FileSummary) foldCalls(e *transcript.Entry, ts int64, sidechain bool, lineNo int32) {
	for _, call := range e.Calls {
		ch := idHash(call.ID)
		if _, dup := f.callIdx[ch]; dup {
			continue
		}
		c := Call{Key: ch, name: f.countTool(call.Name), Time: ts, Sidechain: sidechain, Line: lineNo}
		if call.Action != ActionNone {
			c.Action = call.Action
			var more []transcript.CallFile
			for _, m := range call.More {
				more = append(more, transcript.CallFile{Path: f.internPath(m.Path), Action: m.Action})
			}
			c.files = newCallFiles(f.callFilesSlot(), f.internPath(call.Path), transcript.Clip(call.ID, 200), more)
		}
		c.Kinds, c.Target = classifyCall(&call)
		if st, ok := f.orphans[ch]; ok {
			c.Result = st
			delete(f.orphans, ch)
		}
		f.callIdx[ch] = int32(len(f.Calls))
		f.Calls = append(f.Calls, c)
	}
}

// toolCount is how many calls of a file name one tool: 8 bytes, the name a
// number (nameID).
type toolCount struct {
	id uint32
	n  int32
}

// countTool counts a call of the named tool and returns the name's number
// (nameID), found once per tool and file: a file calls a few tools, so a
// list is smaller than a map and as quick.
func (f *FileSummary) countTool(name string) uint32 {
	find := func(name string) (uint32, bool) {
		for i := range f.tools {
			if nameOf(f.tools[i].id) == name {
				f.tools[i].n++
				return f.tools[i].id, true
			}
		}
		return 0, false
	}
	if id, ok := find(name); ok {
		return id
	}
	kept := transcript.Clip(name, 120)
	if id, ok := find(kept); ok { // a name Clip changes, met before
		return id
	}
	id := nameID(kept)
	f.tools = append(f.tools, toolCount{id, 1})
	return id
}

// ToolCount is how many calls of the file name the tool.
func (f *FileSummary) ToolCount(name string) int {
	for _, t := range f.tools {
		if nameOf(t.id) == name {
			return int(t.n)
		}
	}
	return 0
}

// internPath shares one string per file path within a read: a session
// reads and edits the same files again and again.
func (f *FileSummary) internPath(p string) string {
	if s, ok := f.paths[p]; ok {
		return s
	}
	s := f.clip(p, 1000)
	if f.paths == nil {
		f.paths = map[string]string{}
	}
	f.paths[s] = s // keyed by the clipped path: a path Clip changes is not shared, and is still right
	return s
}

func (f *FileSummary) internModel(m string) string {
	for i := range f.msgs {
		if f.msgs[len(f.msgs)-1-i].Model == m {
			return f.msgs[len(f.msgs)-1-i].Model
		}
		if i > 4 {
			break
		}
	}
	return intern(m)
}

func (f *FileSummary) foldUser(e *transcript.Entry, sidechain bool) {
	f.foldResults(e.Results)
	if sidechain || len(e.Results) > 0 || !e.HasPrompt {
		return
	}
	f.HumanPrompts++
	if f.FirstPrompt == "" {
		f.FirstPrompt = f.clip(e.Prompt, 400)
	}
}

// foldResults joins results to their calls (a result seen first waits for
// its call).
func (f *FileSummary) foldResults(results []transcript.Result) {
	for _, res := range results {
		h := idHash(res.ToolUseID)
		if i, ok := f.callIdx[h]; ok {
			f.callAt(i).Result = res.State
		} else if res.ToolUseID != "" {
			if f.orphans == nil {
				f.orphans = map[uint64]ResultState{}
			}
			f.orphans[h] = res.State
		}
	}
}
