package logs

import (
	"bytes"
	"container/heap"
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/agent-activity/agent-activity/transcript"
)

// Search roles.
const (
	RoleUser       = "user"
	RoleAssistant  = "assistant"
	RoleToolResult = "tool_result"
)

// SearchQuery is a text search over transcripts.
type SearchQuery struct {
	Roles    map[string]bool // empty: all roles
	Sessions []*Session      // the sessions to search
	Range    TimeRange
	Limit    int
	// Redact is applied to a matching text before its snippet is cut, so a
	// secret is never cut in half (and so missed) at the snippet's edge.
	Redact func(string) string
	// After, when set, keeps only hits that come after it in the order of
	// the result (a page after a cursor); Total still counts every hit.
	After *HitPos
}

// HitPos is a hit's place in the order of results: newest first, then by
// Tie, ascending.
type HitPos struct {
	Time int64
	Tie  int64
}

// before reports whether p comes before q in the order of results.
func (p HitPos) before(q HitPos) bool {
	if p.Time != q.Time {
		return p.Time > q.Time
	}
	return p.Tie < q.Tie
}

// SearchHit is one matching entry. Snippet is raw text around the hit.
type SearchHit struct {
	Session *Session
	File    *FileSummary
	Time    int64
	UUID    string
	Role    string
	Snippet string
	Tie     int64 // a non-negative hash of the entry, role and file: orders hits of the same millisecond
}

// Pos is the hit's place in the order of results.
func (h SearchHit) Pos() HitPos { return HitPos{Time: h.Time, Tie: h.Tie} }

// hitTie hashes what tells hits of one millisecond apart (FNV-1a, 63 bits).
func hitTie(uuid, role, path string) int64 {
	h := uint64(14695981039346656037)
	for _, s := range [3]string{uuid, role, path} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ 0) * 1099511628211
	}
	return int64(h >> 1)
}

// SearchResult holds the newest Limit hits and the count of all hits.
type SearchResult struct {
	Hits         []SearchHit // newest first
	Total        int
	ScannedBytes int64
}

type matcher struct {
	re     *regexp.Regexp
	needle []byte     // lower-case literal for the pre-check; nil when none is safe
	pair   pair       // the needle's two bytes the pre-check tests first
	foldsK bool       // the needle holds a k (see lineMayMatch)
	foldsI bool       // the needle holds an i
	lit    foldNeedle // the literal pattern, lower-cased (not a regexp)
}

// foldNeedle is a lower-cased literal as indexFold looks for it, prepared
// once per search rather than for each text it is looked for in.
type foldNeedle struct {
	lower string
	bytes []byte // lower, as bytes
	ascii bool   // lower is ASCII: found by folding ASCII case alone
	pair  pair   // with ascii and lower not empty: the two bytes indexFoldASCII tests first
}

func newFoldNeedle(lower string) foldNeedle {
	n := foldNeedle{lower: lower, bytes: []byte(lower), ascii: isASCII(lower)}
	if n.ascii && lower != "" {
		n.pair = pairOf(n.bytes)
	}
	return n
}

// CompileSearch validates a pattern: invalid RE2 is invalid_argument.
func CompileSearch(pattern string, regex bool) (*matcher, error) {
	if pattern == "" {
		return nil, InvalidArgument("query", "query must not be empty")
	}
	if len(pattern) > 1000 {
		return nil, InvalidArgument("query", "query must be at most 1000 characters")
	}
	m := &matcher{}
	if regex {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, InvalidArgument("query", "query is not a valid RE2 regular expression: %v", err)
		}
		m.re = re
		if lit, _ := re.LiteralPrefix(); len(lit) >= 3 && jsonSafe(lit) && foldSafe(lit) {
			// A case-sensitive prefix, still checked case-insensitively: harmless.
			m.needle = []byte(strings.ToLower(lit))
		}
	} else {
		m.lit = newFoldNeedle(strings.ToLower(pattern))
		if jsonSafe(pattern) && foldSafe(pattern) {
			m.needle = m.lit.bytes
		}
	}
	if m.needle != nil {
		m.pair = pairOf(m.needle)
		m.foldsK = bytes.IndexByte(m.needle, 'k') >= 0
		m.foldsI = bytes.IndexByte(m.needle, 'i') >= 0
	}
	return m, nil
}

// jsonSafe: the literal appears unchanged inside a JSON string, so a raw-line
// pre-check cannot miss it.
func jsonSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// foldSafe: every letter of s is ASCII or has no case, so comparing bytes with
// ASCII case folding finds every case-insensitive occurrence.
func foldSafe(s string) bool {
	for _, r := range s {
		if r >= 0x80 && (unicode.ToLower(r) != r || unicode.ToUpper(r) != r) {
			return false
		}
	}
	return true
}

// find returns the byte offset and length of the first match in s, or -1.
// scratch is the caller's buffer for a lower-cased copy of s (one per
// goroutine).
func (m *matcher) find(s string, scratch *[]byte) (int, int) {
	if m.re != nil {
		loc := m.re.FindStringIndex(s)
		if loc == nil {
			return -1, 0
		}
		return loc[0], loc[1] - loc[0]
	}
	i := indexFold(s, &m.lit, scratch)
	return i, len(m.lit.lower)
}

// indexFold finds lower (already lower-cased) in s ignoring ASCII/Unicode case.
// A text that is not ASCII is lower-cased into *scratch, which keeps the
// buffer when it is small: a search for a common word checks most texts of
// a history, and a new string for each was a third of what it allocated.
//
// An ASCII needle is found by folding ASCII case alone, at its exact place
// in s, unless s holds one of the two runes whose lower case is ASCII
// (İ and the Kelvin sign, TestASCIILowerRunes): an ASCII run lowers to
// itself, and any other rune to bytes above 0x7f, so the needle occurs in
// the lowered text exactly where it occurs in s, folded.
func indexFold(s string, n *foldNeedle, scratch *[]byte) int {
	if n.ascii && (isASCII(s) || !strings.Contains(s, "\u0130") && !strings.Contains(s, "\u212a")) {
		if n.lower == "" {
			return 0
		}
		return indexFoldASCII(unsafe.Slice(unsafe.StringData(s), len(s)), n.bytes, n.pair)
	}
	ls := appendLower(slices.Grow((*scratch)[:0], len(s)+utf8.UTFMax), s)
	if cap(ls) <= 64<<10 {
		*scratch = ls // reused; a larger one is not kept beyond this call
	}
	if len(ls) != len(s) {
		// Lower-casing changed byte lengths; report a position in the lowered text.
		i := bytes.Index(ls, n.bytes)
		if i < 0 {
			return -1
		}
		return min(i, len(s)-1)
	}
	return bytes.Index(ls, n.bytes)
}

// appendLower appends strings.ToLower(s) to b: each rune (an invalid byte
// reads as U+FFFD) lower-cased by unicode.ToLower.
func appendLower(b []byte, s string) []byte {
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
			continue
		}
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return b
}

// isASCII reports whether s is all ASCII, sixteen bytes at a time (a
// common word's search checks every text that holds it: tool outputs of
// kilobytes, byte by byte a tenth of such a search).
func isASCII(s string) bool {
	const highs = 0x8080808080808080
	i := 0
	for p := unsafe.Pointer(unsafe.StringData(s)); i+16 <= len(s); i += 16 {
		if (*(*uint64)(unsafe.Add(p, i))|*(*uint64)(unsafe.Add(p, i+8)))&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiEqualFold compares a with lower (already lower-case), folding ASCII case.
func asciiEqualFold[T string | []byte](a, lower T) bool {
	for i := 0; i < len(a); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// lineMayMatch is the byte pre-check: true when the raw line could hold a hit.
// It looks for the places where the needle's two rarest bytes (in either
// case) both are, and compares the needle there, without copying the line.
//
// Two runes lower-case to ASCII letters (TestASCIILowerRunes): the Kelvin
// sign to k and İ to i, so the matcher finds "kelvin" in "\u212aelvin",
// where the bytes hold no k. A needle with a k, or an i, also takes a line
// that holds the rune as UTF-8: the way Claude Code and Codex CLI write it
// (JSON.stringify and serde_json write every rune but control characters as
// itself). 0xC4, İ's first byte, is rare in most text; the Kelvin sign's
// 0xE2 begins typographic quotes and dashes too.
func (m *matcher) lineMayMatch(line []byte) bool {
	if m.needle == nil || containsFoldASCII(line, m.needle, m.pair) {
		return true
	}
	return m.foldsK && bytes.Contains(line, []byte("\u212a")) || m.foldsI && bytes.Contains(line, []byte("\u0130"))
}

// anchorOf picks the position of the needle byte least likely to occur in
// transcripts.
func anchorOf(needle []byte) int {
	best, bestRank := 0, 1000
	for i, c := range needle {
		if rank := anchorRank(c); rank < bestRank {
			best, bestRank = i, rank
		}
	}
	return best
}

// anchorRank is how likely a byte is in transcripts, lower for rarer.
func anchorRank(c byte) int {
	const common = "etaoinsrhldcumfpgwybvkxjqz" // most to least frequent letters
	switch {
	case c >= 'a' && c <= 'z':
		return 25 - strings.IndexByte(common, c) // rare letters rank low
	case c == ' ' || c == '"' || c == ':' || c == ',':
		return 100
	case c >= '0' && c <= '9':
		return 30
	}
	return 40 // other punctuation: rare in prose
}

func containsFoldASCII(line, needle []byte, p pair) bool {
	return indexFoldASCII(line, needle, p) >= 0
}

var persistedMarker = []byte("<persisted-output>")

// markerPair tests the marker's first and last bytes, which are 17 apart in
// few places of a history (pairOf would take its p's, which "type" holds).
// The compare that follows folds case: a marker in another case makes a
// line decoded, never one skipped.
var markerPair = pair{p1: 0, p2: len(persistedMarker) - 1, c1: '<', c2: '>'}

// Search scans the sessions' files (and spilled tool results) for the pattern.
func (snap *Snapshot) Search(ctx context.Context, q SearchQuery, m *matcher) (SearchResult, error) {
	type job struct {
		s *Session
		f *FileSummary
	}
	var jobs []job
	for _, s := range q.Sessions {
		if !q.Range.Overlaps(s.Start, s.End) {
			continue
		}
		for _, f := range s.Files() {
			jobs = append(jobs, job{s, f})
		}
	}
	hc := &hitCollector{limit: q.Limit, after: q.After}
	searchers := hc.searchers(q, m)
	parallel(ctx, len(jobs), func(i int) {
		ls := searchers.Get().(*lineSearcher)
		searchFile(ctx, jobs[i].s, jobs[i].f, ls)
		searchers.Put(ls)
	})
	if err := ctx.Err(); err != nil {
		return SearchResult{}, err
	}
	return hc.result(), nil
}

// hitCollector keeps the newest limit hits and counts all of them; safe for
// concurrent use.
type hitCollector struct {
	mu      sync.Mutex
	limit   int
	after   *HitPos
	top     hitHeap
	total   int
	scanned atomic.Int64
}

// wants reports whether a hit at p would be kept now: on this page and
// among the best limit so far. A hit it does not want is only counted, so
// its text is neither redacted nor cut (a common word's hits are nearly all
// such, and redacting their texts was a third of the search).
func (hc *hitCollector) wants(p HitPos) bool {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	if hc.after != nil && !hc.after.before(p) {
		return false
	}
	return hc.top.Len() < hc.limit || p.before(hc.top[0].Pos())
}

// count counts a hit that is not kept.
func (hc *hitCollector) count() {
	hc.mu.Lock()
	hc.total++
	hc.mu.Unlock()
}

// add counts a hit, h.Tie set, and keeps it when it is among the best.
func (hc *hitCollector) add(h SearchHit) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	hc.total++
	if hc.after != nil && !hc.after.before(h.Pos()) {
		return // on a page before this one
	}
	if hc.top.Len() < hc.limit {
		heap.Push(&hc.top, h)
	} else if hitBefore(hc.top[0], h) {
		hc.top[0] = h
		heap.Fix(&hc.top, 0)
	}
}

func (hc *hitCollector) result() SearchResult {
	res := SearchResult{Total: hc.total, ScannedBytes: hc.scanned.Load()}
	for hc.top.Len() > 0 {
		res.Hits = append(res.Hits, heap.Pop(&hc.top).(SearchHit))
	}
	for i, j := 0, len(res.Hits)-1; i < j; i, j = i+1, j-1 {
		res.Hits[i], res.Hits[j] = res.Hits[j], res.Hits[i]
	}
	return res
}

// SearchWhileReading returns the snapshot and, when this look had to read
// every file anyway (the store's first look), the search over all sessions
// done in that same pass: each file is read once for both. When the store
// was already warm it returns nil results and the caller searches the
// snapshot. q.Sessions is ignored: the combined pass searches everything.
func (s *Store) SearchWhileReading(ctx context.Context, progress Progress, q SearchQuery, m *matcher) (*Snapshot, *SearchResult, error) {
	hc := &hitCollector{limit: q.Limit, after: q.After}
	searchers := hc.searchers(q, m)
	var read fileStates[int64] // the bytes of each file's lines
	hook := func(f *FileSummary) func(transcript.EntryReader) {
		n := read.add(f)
		return func(er transcript.EntryReader) {
			*n += int64(len(er.Lines().Bytes())) + 1
			ls := searchers.Get().(*lineSearcher)
			ls.line(f, nil, er)
			searchers.Put(ls)
		}
	}
	snap, combined, err := s.snapshot(ctx, progress, hook)
	if err != nil || !combined {
		return snap, nil, err
	}
	// The bytes scanned are those a search of the snapshot reads: the
	// files of the sessions in the range (and the spilled outputs read).
	owner := map[*FileSummary]*Session{}
	for _, ss := range snap.Sessions {
		in := q.Range.Overlaps(ss.Start, ss.End)
		for _, f := range ss.Files() {
			owner[f] = ss
			if n, ok := read.get(f); ok && in {
				hc.scanned.Add(*n)
			}
		}
	}
	res := hc.result()
	for i := range res.Hits {
		res.Hits[i].Session = owner[res.Hits[i].File]
	}
	return snap, &res, nil
}

// searchers is a pool of line searchers that apply q and m and report to
// hc: a searcher per worker, not per file, so that its scratch (the lowered
// line, the last spilled output) is reused from file to file.
func (hc *hitCollector) searchers(q SearchQuery, m *matcher) *sync.Pool {
	return &sync.Pool{New: func() any { return &lineSearcher{q: q, m: m, scanned: &hc.scanned, hits: hc} }}
}

// searchFile searches one file of s with ls.
func searchFile(ctx context.Context, s *Session, f *FileSummary, ls *lineSearcher) {
	fh, er, err := f.openEntries(ctx)
	if err != nil {
		return
	}
	defer fh.Close()
	defer er.Close()
	m, scanned := ls.m, ls.scanned
	if m.needle != nil {
		// A long line the pre-check rejects, on its pieces, is passed over
		// without being held, and so are the runs of lines in the read
		// buffer that it rejects at once: a needle in no line of a run is
		// not in the run.
		span := max(len(m.needle), len(persistedMarker), len("\u212a")) - 1
		er.Lines().SkipLong(span, func(b []byte) bool { return ls.mayHit(f, b) }, func(n int) { scanned.Add(int64(n) + 1) })
		er.Lines().SkipRuns(func(lines int, n int64) { scanned.Add(n + int64(lines)) })
	}
	for er.Scan() {
		scanned.Add(int64(len(er.Lines().Bytes())) + 1)
		ls.line(f, s, er)
	}
}

// lineSearcher applies a search to one line at a time, either while reading
// a file for the search alone or while the store reads it for its summary.
type lineSearcher struct {
	q       SearchQuery
	m       *matcher
	scanned *atomic.Int64
	hits    *hitCollector
	lower   []byte // scratch for matcher.find
	spill   []byte // the buffer of the last spilled output read (readSpill)

	relOf *FileSummary // the file rel is the path of, relative to its root
	rel   string

	spillsOf *FileSummary // the file spills is said of
	spills   bool
}

// mayHit is the pre-check of raw bytes of f (a line, or a piece of one):
// false when no hit can come from them, neither in them nor in a spill
// their marker names.
func (ls *lineSearcher) mayHit(f *FileSummary, b []byte) bool {
	return ls.m.lineMayMatch(b) || ls.spillsIn(f) && containsFoldASCII(b, persistedMarker, markerPair)
}

// spillsIn reports whether f's session has a folder of spilled outputs. A
// line's spill marker matters only when the spill can be read: the
// marker's text is the output's preview, and a preview the needle is not in
// has no hit without its spill. Most sessions have no such folder, so one
// stat per file spares the marker's check of each of its lines.
func (ls *lineSearcher) spillsIn(f *FileSummary) bool {
	if ls.spillsOf != f {
		dir := f.agent.SpillDir(&f.File)
		ls.spillsOf, ls.spills = f, dir != "" && transcript.Stat(dir).Dir
	}
	return ls.spills
}

// line searches the current line of er, a reader of f: the raw bytes are
// checked first, and only a line that may match is decoded.
func (ls *lineSearcher) line(f *FileSummary, s *Session, er transcript.EntryReader) {
	q, m := ls.q, ls.m
	if !ls.mayHit(f, er.Lines().Bytes()) {
		return
	}
	// The texts live until the next line (the reader's buffer): a hit's
	// snippet is a copy.
	l, ok := er.Entry(transcript.WantText)
	if !ok || l.Role == transcript.RoleOther {
		return
	}
	if !q.Range.Contains(l.Time) {
		return
	}
	want := func(role string) bool { return len(q.Roles) == 0 || q.Roles[role] }
	sidechain := f.Kind != MainFile || l.Sidechain
	emit := func(role, text string) bool {
		at, n := m.find(text, &ls.lower)
		if at < 0 {
			return false
		}
		if ls.relOf != f {
			ls.relOf, ls.rel = f, relPath(f.Root.Path, f.Path)
		}
		pos := HitPos{Time: l.Time, Tie: hitTie(l.UUID, role, ls.rel)}
		if !ls.hits.wants(pos) {
			ls.hits.count()
			return true
		}
		if q.Redact != nil {
			text = q.Redact(text)
			if at, n = m.find(text, &ls.lower); at < 0 {
				at, n = 0, 0 // the hit was inside a redacted secret
			}
		}
		snip := snippetAround(text, at, n, 238)
		ls.hits.add(SearchHit{Session: s, File: f, Time: l.Time, Tie: pos.Tie, UUID: strings.Clone(l.UUID), Role: role, Snippet: snip})
		return true
	}
	switch l.Role {
	case transcript.RoleUser:
		if want(RoleToolResult) {
			for _, r := range l.Results {
				text := r.Text
				if r.Spilled {
					if full, ok := ls.readSpill(f, r.ToolUseID); ok {
						text = full
					}
				}
				if emit(RoleToolResult, text) {
					return // one match per entry
				}
			}
		}
		if !sidechain && want(RoleUser) && l.HasPrompt && len(l.Results) == 0 {
			emit(RoleUser, l.Prompt)
		}
	case transcript.RoleAssistant:
		if want(RoleAssistant) && l.Text != "" {
			emit(RoleAssistant, l.Text)
		}
	}
}

// readSpill reads the whole spilled output of a tool call, when the agent
// keeps one, through the root's containment check.
func (ls *lineSearcher) readSpill(f *FileSummary, toolUseID string) (string, bool) {
	p := f.agent.SpillPath(&f.File, toolUseID)
	if p == "" {
		return "", false
	}
	if st := transcript.Stat(p); !st.Regular || st.Size > 64<<20 {
		return "", false
	}
	b, err := f.Root.ReadSmall(p, 64<<20, ls.spill)
	if err != nil {
		return "", false
	}
	ls.spill = b
	ls.scanned.Add(int64(len(b)))
	return unsafe.String(unsafe.SliceData(b), len(b)), true // valid until the next spill read (a hit's snippet is a copy)
}

// snippetAround cuts up to max runes of text around [at, at+n), on rune
// boundaries.
func snippetAround(text string, at, n, max int) string {
	start, end := at, at+n
	if end > len(text) {
		end = len(text)
	}
	budget := max - utf8.RuneCountInString(text[start:end])
	for budget > 0 && (start > 0 || end < len(text)) {
		if start > 0 && (budget%2 == 0 || end >= len(text)) {
			_, sz := utf8.DecodeLastRuneInString(text[:start])
			start -= sz
		} else if end < len(text) {
			_, sz := utf8.DecodeRuneInString(text[end:])
			end += sz
		}
		budget--
	}
	snip := text[start:end]
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "…"
	}
	if end < len(text) {
		suffix = "…"
	}
	// Clone: text may alias the reader's buffer.
	return strings.Clone(strings.ToValidUTF8(prefix+snip+suffix, "\uFFFD"))
}

// hitHeap is a min-heap on time, keeping the newest hits.
type hitHeap []SearchHit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return hitBefore(h[i], h[j]) }

// hitBefore reports whether a ranks after b in the results (older, or of
// the same millisecond with a larger tie), so that which hits are kept does
// not depend on the order files were read in.
func hitBefore(a, b SearchHit) bool { return b.Pos().before(a.Pos()) }
func (h hitHeap) Swap(i, j int)     { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)       { *h = append(*h, x.(SearchHit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
