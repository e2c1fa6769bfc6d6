package logs

import (
	"context"
	"iter"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agent-activity/agent-activity/pricing"
	"github.com/agent-activity/agent-activity/transcript"
)

// Snapshot is an immutable view of the whole history at one moment: every
// file summary grouped into sessions, with usage deduplicated across files.
// Tools read it concurrently; nothing in it is mutated after buildSnapshot.
type Snapshot struct {
	Roots    []RootInfo
	Files    []*FileSummary
	Sessions []*Session // most recently active first
	Pricing  *pricing.Table
	cfg      Config

	coverageOnce sync.Once
	coverage     Coverage              // computed on first use; see Coverage
	oldest       atomic.Pointer[int64] // CoverageFrom's unix ms, once computed (an extension keeps its predecessor's)
	torn         []*Session            // the sessions with a torn file: their skipped lines depend on the clock

	memoMu   sync.Mutex
	reports  rowMemo[Report]      // see Report
	machines map[string]*Snapshot // see OnMachine

	// Every session's usage buckets in one list, a run per session in the
	// order of the last full build, so that a report reads them in a row
	// instead of visiting each session; extensions leave the list as it is
	// and note the sessions they replaced (gone) and their new values
	// (fresh, most recently active first). flat is false for a snapshot
	// built otherwise (OnMachine's): a report then walks Sessions.
	runs     []bucketRun
	gone     []*Session
	fresh    []*Session
	flat     bool
	runsMemo *runsMemo // reports of the runs, shared with the snapshots sharing them
}

// bucketRun is a session's buckets within Snapshot.runs.
type bucketRun struct {
	s *Session
	b []bucket
}

// flatten lays the sessions' buckets out in one list (see Snapshot.runs).
func (snap *Snapshot) flatten() {
	n := 0
	for _, s := range snap.Sessions {
		n += len(s.buckets)
	}
	all := make([]bucket, 0, n)
	snap.runs = make([]bucketRun, 0, len(snap.Sessions))
	for _, s := range snap.Sessions {
		if len(s.buckets) == 0 {
			continue
		}
		at := len(all)
		all = append(all, s.buckets...)
		s.buckets = all[at:len(all):len(all)] // an extension copies them before it adds
		snap.runs = append(snap.runs, bucketRun{s, s.buckets})
	}
	snap.flat, snap.runsMemo = true, &runsMemo{}
}

// Session is a trunk session id with its subagent files.
type Session struct {
	ID         string
	Agent      string // whose history it is: "claude-code" or "codex" (transcript.Agent.Name)
	Key        string // project folder + id: the same id under two folders is two sessions
	Root       string
	Machine    string // the label of the session's root; LocalMachine when it has none
	ProjectDir string
	Project    string
	Main       *FileSummary // nil when only subagent files exist
	Subagents  []*FileSummary

	Repo      string
	Cwd       string
	GitBranch string
	Title     string
	Start     int64
	End       int64
	modSec    int64 // ModTime, in the words of padding Unverified leaves: a Session in the 768-byte size class, not the 896

	MessageCount int
	APIErrors    int
	Unverified   bool
	hasModTime   bool
	modNsec      int32
	CostState    *CostState

	Usage     SessionUsage
	responses []Response // the API responses attributed to this session
	wide      *[]Usage   // the usage of responses whose counts do not fit an int32 (see Response.setUsage); nil in real logs
	calls     []callRun  // the tool calls attributed to this session, each once, file by file
	numCalls  int        // how many calls there are
	buckets   []bucket   // responses summed by quarter hour and model
	home      *sessionHome
	pricing   *pricing.Table // the store's, set by the tally: what PriceOf prices with
	tie       atomic.Int64   // Tie, once computed (0: not yet)
}

// ModTime is the latest modification time of the session's files (the
// zero time when none is known).
func (s *Session) ModTime() time.Time {
	if !s.hasModTime {
		return time.Time{}
	}
	return time.Unix(s.modSec, int64(s.modNsec))
}

// noteModTime makes t the session's ModTime when it is later.
func (s *Session) noteModTime(t time.Time) {
	if t.IsZero() || s.hasModTime && !t.After(s.ModTime()) {
		return
	}
	s.modSec, s.modNsec, s.hasModTime = t.Unix(), int32(t.Nanosecond()), true
}

// Tie is transcript.Hash63 of the session's agent, machine, project folder
// and id: what tells apart sessions that sort alike, computed once.
func (s *Session) Tie() int64 {
	if v := s.tie.Load(); v != 0 {
		return v
	}
	v := transcript.Hash63(s.Agent, s.Machine, s.Project, s.ID)
	s.tie.Store(v)
	return v
}

// callRun lists the calls a session owns in one of its files: all of them
// (the common case, which costs nothing per call), or those at own.
type callRun struct {
	f   *FileSummary
	own []int32 // indexes in f.Calls; nil: every call of f
}

// Calls iterates the tool calls the session owns, each counted once across
// the whole history: a call copied into another file (a worker replaying its
// parent, a resumed session) travels with its copied response and belongs
// where that response does (SPEC §3).
func (s *Session) Calls() iter.Seq2[*FileSummary, *Call] {
	return func(yield func(*FileSummary, *Call) bool) {
		for _, r := range s.calls {
			if r.own == nil {
				for i := range r.f.Calls {
					if !yield(r.f, &r.f.Calls[i]) {
						return
					}
				}
				continue
			}
			for _, i := range r.own {
				if !yield(r.f, &r.f.Calls[i]) {
					return
				}
			}
		}
	}
}

// ownCalls lists the calls of s's files whose carrying response is owned by
// that same file; calls on lines without a counted response own themselves.
func (s *Session) ownCalls(index *respIndex) {
	s.calls, s.numCalls = nil, 0
	for _, f := range s.Files() {
		s.addRun(index, callRun{f: f}, 0)
	}
}

// addRun goes on with run over its file's calls from from (those before are
// decided: all owned while own is nil) and lists it when it owns any.
func (s *Session) addRun(index *respIndex, run callRun, from int) {
	f := run.f
	for i := from; i < len(f.Calls); i++ {
		switch owned := s.ownsCall(index, f, i); {
		case owned && run.own != nil:
			run.own = append(run.own, int32(i))
		case !owned && run.own == nil: // the first call not owned: from here the owned calls are listed
			run.own = make([]int32, i, len(f.Calls)-1)
			for j := range run.own {
				run.own[j] = int32(j)
			}
		}
	}
	n := len(f.Calls)
	if run.own != nil {
		n = len(run.own)
	}
	if n > 0 {
		s.calls = append(s.calls, run)
		s.numCalls += n
	}
}

// ownsCall reports whether call i of f, a file of s, is s's to count: a call
// travels with its response, so one whose response is owned through another
// file is that file's.
func (s *Session) ownsCall(index *respIndex, f *FileSummary, i int) bool {
	if m := f.Calls[i].Msg; m != 0 {
		if ref, ok := index.get(m); ok && ref.h.s.responses[ref.i].file != f.no {
			return false
		}
	}
	return true
}

// Responses are the API responses attributed to the session, each counted once
// across the whole history.
func (s *Session) Responses() []Response { return s.responses }

// AllResponses iterates every API response of the history once, with the
// session it is attributed to.
func (snap *Snapshot) AllResponses() iter.Seq2[*Session, *Response] {
	return func(yield func(*Session, *Response) bool) {
		for _, s := range snap.Sessions {
			for i := range s.responses {
				if !yield(s, &s.responses[i]) {
					return
				}
			}
		}
	}
}

// Files returns the main file (if any) followed by the subagent files.
func (s *Session) Files() []*FileSummary {
	out := make([]*FileSummary, 0, 1+len(s.Subagents))
	if s.Main != nil {
		out = append(out, s.Main)
	}
	return append(out, s.Subagents...)
}

// FirstPrompt is the first human prompt of the main thread, unredacted.
func (s *Session) FirstPrompt() string {
	if s.Main == nil {
		return ""
	}
	return s.Main.FirstPrompt
}

// clockSlack is how far a line's timestamp may lag or lead the machine's
// clock and still count as written within the live window.
const clockSlack = 2 * time.Minute

// IsLive reports whether the session is being written now: its newest file
// changed within the window and its newest line is dated within it too
// (SPEC §3). Files copied or synced from elsewhere get a fresh mtime but keep
// old lines: they are not live. A file dated further in the future than the
// window (a wrong clock, a bulk touch) is not live either.
func (s *Session) IsLive(now time.Time, window time.Duration) bool {
	d := now.Sub(s.ModTime())
	if d > window || d < -window {
		return false
	}
	if s.End == 0 {
		return false
	}
	ld := now.Sub(time.UnixMilli(s.End))
	return ld <= window+clockSlack && ld >= -(window+clockSlack)
}

// SkippedLines counts undecodable lines; a torn last line counts only when the
// session is not live (a live one is still being written).
func (s *Session) SkippedLines(live bool) int {
	n := 0
	for _, f := range s.Files() {
		n += f.Skipped
		if f.Torn && !live {
			n++
		}
	}
	return n
}

// SchemaStatus is "verified" or "unverified" (drifted lines, no envelope, no cwd).
func (s *Session) SchemaStatus() string {
	if s.Unverified {
		return "unverified"
	}
	return "verified"
}

// Tally is token usage plus its cost.
type Tally struct {
	Usage
	Cost pricing.Tally
}

func (t *Tally) add(p *pricing.Table, model string, u Usage) {
	usd, ok := p.Cost(model, u)
	t.addCost(model, u, usd, ok)
}

func (t *Tally) addCost(model string, u Usage, usd float64, priced bool) {
	t.Usage.Add(u)
	t.Cost.AddCost(model, u.Total(), usd, priced)
}

// addResponse adds r, a response of s, priced now (Session.PriceOf).
func (t *Tally) addResponse(s *Session, r *Response) {
	usd, ok := s.PriceOf(r)
	t.addCost(r.Model(), s.UsageOf(r), usd, ok)
}

// Merge adds o into t.
func (t *Tally) Merge(o Tally) {
	t.Usage.Add(o.Usage)
	t.Cost.Merge(o.Cost)
}

// SessionUsage is a session's usage split by thread and by model.
type SessionUsage struct {
	Total     Tally
	Main      Tally
	Sidechain Tally
	ByModel   []ModelTally // the session's models, in the order of their first response
}

// ModelTally is one model's part of a session's usage. A session has one
// model or a few: a list costs 136 bytes a model, where a map of pointers
// cost some 380 bytes for one (4 GB: 12,000 sessions, 14,000 models).
type ModelTally struct {
	Model string
	Tally
}

// Model is the tally of the named model, nil when the session has none.
func (u *SessionUsage) Model(name string) *Tally {
	if i := u.modelAt(name); i >= 0 {
		return &u.ByModel[i].Tally
	}
	return nil
}

// modelAt is the position of the named model in ByModel, or -1.
func (u *SessionUsage) modelAt(name string) int {
	for i := range u.ByModel {
		if u.ByModel[i].Model == name {
			return i
		}
	}
	return -1
}

// Response is one deduplicated API response. A history holds one per model
// turn, so it is kept in 56 bytes and without a pointer (the collector
// never scans a session's list): its token counts as int32s when all six
// fit (every real count does), else whole in its session's wide list; its
// model as a number (nameID); its file by the file's number; its own flags
// in a byte; its session is the one whose list holds it, and its cost is
// computed when asked (Session.PriceOf), not kept.
type Response struct {
	key       uint64
	Time      int64
	counts    [6]int32 // Input, Output, CacheCreate5m, CacheCreate1h, CacheRead, Reasoning; when wide, counts[0] indexes Session.wide
	model     uint32   // nameID of the model's name
	file      uint32   // FileSummary.no of the file of the first copy in the owning session
	Sidechain bool
	Advisor   bool // a second model consulted inside another response, billed at its own rates
	flags     respFlags
}

// respFlags are a Response's own flags.
type respFlags uint8

const (
	respFast    respFlags = 1 << iota // Usage.Fast
	respWide                          // a count does not fit an int32
	respAdvised                       // the response's advisor usage has been added
)

func (r *Response) has(f respFlags) bool { return r.flags&f != 0 }

func (r *Response) set(f respFlags, on bool) {
	if on {
		r.flags |= f
	} else {
		r.flags &^= f
	}
}

// PriceOf is r's cost in USD at list price, and whether its model is
// priced: computed when asked from the store's table (the session's), which
// never changes, so a sum over the same responses is the same sum (8 bytes
// a response not kept). r is one of the session's responses.
func (s *Session) PriceOf(r *Response) (usd float64, priced bool) {
	return s.pricing.Cost(r.Model(), s.UsageOf(r))
}

// Model is the name of the response's model.
func (r *Response) Model() string { return nameOf(r.model) }

// sameUsage reports whether r (a response of rs) and o (of ros) have the
// same usage, comparing the packed counts (a Usage compare went through
// memequal, a third of what an extension spent comparing a session's 8,000
// responses).
func (r *Response) sameUsage(rs *Session, o *Response, ros *Session) bool {
	if r.has(respWide) || o.has(respWide) {
		return rs.UsageOf(r) == ros.UsageOf(o)
	}
	return r.counts == o.counts && r.has(respFast) == o.has(respFast)
}

// UsageOf is the token usage of r, one of the session's responses.
func (s *Session) UsageOf(r *Response) Usage {
	if r.has(respWide) {
		return (*s.wide)[r.counts[0]]
	}
	c := &r.counts
	return Usage{Input: int64(c[0]), Output: int64(c[1]), CacheCreate5m: int64(c[2]), CacheCreate1h: int64(c[3]),
		CacheRead: int64(c[4]), Reasoning: int64(c[5]), Fast: r.has(respFast)}
}

// setUsage sets the usage of r, a response of s. A usage that
// does not fit the int32s goes to the session's wide list (a usage replaced
// later leaves its old entry unused there: such counts never occur in real
// logs, so nothing is reclaimed).
func (r *Response) setUsage(s *Session, u Usage) {
	n := [6]int64{u.Input, u.Output, u.CacheCreate5m, u.CacheCreate1h, u.CacheRead, u.Reasoning}
	r.set(respFast, u.Fast)
	r.set(respWide, false)
	for i, v := range n {
		if v != int64(int32(v)) {
			r.set(respWide, true)
			break
		}
		r.counts[i] = int32(v)
	}
	if r.has(respWide) {
		if s.wide == nil {
			s.wide = new([]Usage)
		}
		r.counts = [6]int32{int32(len(*s.wide))}
		*s.wide = append(*s.wide, u)
	}
}

// respRef locates a keyed response: its owning session and position.
type respRef struct {
	h *sessionHome
	i int32
}

// sessionHome is where the index finds a session's current value: an
// extension replaces a session by a new value and moves its home, instead of
// rewriting the index entry of every response the session owns.
type sessionHome struct {
	s  *Session
	no uint32 // the home's number in the index
}

// buildSnapshot groups files into sessions and deduplicates every message id
// across them. It returns the snapshot and the index of keyed responses that
// incremental updates extend.
func buildSnapshot(cfg Config, files map[string]*FileSummary, roots []RootInfo) (*Snapshot, *respIndex) {
	snap := &Snapshot{Roots: roots, Pricing: cfg.Pricing, cfg: cfg}
	bySession := map[string]*Session{}
	var order []*FileSummary
	for _, f := range files {
		order = append(order, f)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Path < order[j].Path })
	snap.Files = order
	for _, f := range order {
		sid, key := sessionOf(f)
		s := bySession[key]
		if s == nil {
			s = newSession(f, sid, key)
			bySession[key] = s
		}
		s.add(f)
	}
	for _, s := range bySession {
		finishSession(s)
		snap.Sessions = append(snap.Sessions, s)
	}
	// Deduplicate across files: sessions in order of start, main file first.
	sortByStart(snap.Sessions)
	n := 0
	for _, f := range order {
		m, _ := f.numMessages()
		n += m
	}
	homes := make([]*sessionHome, len(snap.Sessions))
	for i, s := range snap.Sessions {
		homes[i] = s.home
	}
	index := newRespIndex(n, homes)
	var models lastName
	for _, s := range snap.Sessions {
		files := s.Files()
		s.responses = make([]Response, 0, responsesBound(files)) // no growth: a history holds tens of thousands
		for _, f := range files {
			for _, m := range f.Messages() {
				claimMessage(index, s, f, &m, &models)
			}
		}
	}
	// Every response has its owner now: the rest is per session.
	ss := snap.Sessions
	parallel(context.Background(), len(ss), func(i int) { ss[i].ownCalls(index) })
	parallel(context.Background(), len(ss), func(i int) { ss[i].tally(cfg.Pricing, cfg.Location) })
	sortByEnd(snap.Sessions)
	snap.flatten()
	return snap, index
}

// sessionOf is the id and the key of the session a file belongs to.
func sessionOf(f *FileSummary) (sid, key string) {
	sid = f.SessionID
	if sid == "" {
		// A legacy agent file with no sessionId in any line: its own session.
		sid = "agent-" + f.AgentID
	}
	return sid, f.ProjectDir + string(filepath.Separator) + sid
}

// newSession is the session of f, with nothing in it yet.
func newSession(f *FileSummary, sid, key string) *Session {
	s := &Session{ID: sid, Agent: f.agent.Name(), Key: key, Root: f.Root.Path, Machine: machineOf(f.Root), ProjectDir: f.ProjectDir, Project: f.Project}
	s.home = &sessionHome{s: s}
	return s
}

// add puts f among the session's files (a full build sorts its subagents
// by path in finishSession).
func (s *Session) add(f *FileSummary) {
	if f.Kind == MainFile {
		s.Main = f
	} else {
		s.Subagents = append(s.Subagents, f)
	}
	f.home = s.home
}

// responsesBound is the most responses the messages of files can make: one
// each, and one per advisor.
func responsesBound(files []*FileSummary) int {
	n := 0
	for _, f := range files {
		m, a := f.numMessages()
		n += m + a
	}
	return n
}

// tally prices the session's responses and sums its usage.
func (s *Session) tally(p *pricing.Table, loc *time.Location) {
	s.Usage = SessionUsage{}
	s.buckets = s.buckets[:0]
	s.tallyFrom(p, loc, 0)
}

// tallyFrom adds responses[from:] to the session's sums and buckets.
func (s *Session) tallyFrom(p *pricing.Table, loc *time.Location, from int) {
	idx := make(map[bucketKey]int, len(s.buckets))
	for j := range s.buckets {
		idx[s.buckets[j].bucketKey] = j
	}
	var models map[string]int // the positions in s.Usage.ByModel, once it is long
	s.pricing = p
	for i := from; i < len(s.responses); i++ {
		r := &s.responses[i]
		u := s.UsageOf(r)
		usd, priced := s.pricing.Cost(r.Model(), u)
		s.Usage.addResponse(r, u, usd, priced, &models)
		k := bucketKey{r.Time / quarterMs, r.Model()}
		j, ok := idx[k]
		if !ok {
			j = len(s.buckets)
			idx[k] = j
			s.buckets = append(s.buckets, bucket{bucketKey: k, date: localDate(k.quarter, loc)})
		}
		s.buckets[j].usage.addCost(k.model, u, usd, priced)
	}
}

// quarterMs is the width of a usage bucket. Time zones are offset from UTC by
// whole quarter hours, so a bucket never straddles a local midnight.
const quarterMs = 15 * 60 * 1000

type bucketKey struct {
	quarter int64 // unix ms / quarterMs
	model   string
}

// bucket is a session's usage in one quarter hour for one model: reports
// add up buckets instead of single responses.
type bucket struct {
	bucketKey
	date  int // the quarter's local date (localDate) in the snapshot's location
	usage Tally
}

// claimMessage folds one message of file f (session s) into the responses: a
// new id becomes a response of s; a known one keeps its owner (the session
// that started first, on its main thread when any copy there is) and takes
// the usage of the copy with the largest output_tokens.
func claimMessage(index *respIndex, s *Session, f *FileSummary, m *Message, models *lastName) {
	if !m.Counts() {
		return
	}
	r := Response{key: m.Key, file: f.no, Time: m.Time, model: models.of(m.Model), Sidechain: m.Sidechain}
	r.set(respAdvised, len(m.Advisors) > 0)
	r.setUsage(s, m.Usage)
	if m.Key == 0 {
		s.responses = append(s.responses, r)
		addAdvisors(s, &r, m)
		return
	}
	ref, ok := index.get(m.Key)
	if !ok {
		index.put(m.Key, respRef{s.home, int32(len(s.responses))})
		s.responses = append(s.responses, r)
		addAdvisors(s, &r, m)
		return
	}
	own := &ref.h.s.responses[ref.i]
	had := own.has(respAdvised)
	mergeCopy(own, ref.h.s, s, f, m, models)
	if !had && len(m.Advisors) > 0 {
		own.set(respAdvised, true)
		at := *own
		addAdvisors(ref.h.s, &at, m)
	}
}

// addAdvisors adds the advisor usage of message m, on the side and at the
// time of its response r, once per response (SPEC §3 "Advisor usage").
func addAdvisors(s *Session, r *Response, m *Message) {
	for _, a := range m.Advisors {
		ar := Response{file: r.file, Time: r.Time, model: nameID(a.Model), Sidechain: r.Sidechain, Advisor: true}
		ar.setUsage(s, a.Usage)
		s.responses = append(s.responses, ar)
	}
}

// mergeCopy folds another copy of a known message, read in file f of
// session s, into its response r of session owner.
func mergeCopy(r *Response, owner, s *Session, f *FileSummary, m *Message, models *lastName) {
	if owner == s && !m.Sidechain && r.Sidechain {
		r.Sidechain, r.file = false, f.no
	}
	if m.Usage.Output >= owner.UsageOf(r).Output {
		r.setUsage(owner, m.Usage)
		if m.Model != "" {
			r.model = models.of(m.Model)
		}
	}
}

// addResponse sums one response, whose usage is ru, into the session's
// tallies, priced by the caller, who sums it into several at once. A session's
// models are found in its list; once it has more than modelsListed, through
// *index, which the caller keeps over its additions (nil until then), so a
// history whose sessions each name thousands of models stays linear.
func (u *SessionUsage) addResponse(r *Response, ru Usage, usd float64, priced bool, index *map[string]int) {
	name := r.Model()
	u.Total.addCost(name, ru, usd, priced)
	if r.Sidechain {
		u.Sidechain.addCost(name, ru, usd, priced)
	} else {
		u.Main.addCost(name, ru, usd, priced)
	}
	i, ok := -1, false
	if *index != nil {
		i, ok = (*index)[name]
	} else {
		i = u.modelAt(name)
		ok = i >= 0
	}
	if !ok {
		i = len(u.ByModel)
		u.ByModel = append(u.ByModel, ModelTally{Model: name})
		switch {
		case *index != nil:
			(*index)[name] = i
		case len(u.ByModel) > modelsListed:
			*index = make(map[string]int, len(u.ByModel))
			for j := range u.ByModel {
				(*index)[u.ByModel[j].Model] = j
			}
		}
	}
	u.ByModel[i].addCost(name, ru, usd, priced)
}

// modelsListed is how many models a session's tally finds by walking its list.
const modelsListed = 16

func sortByStart(ss []*Session) {
	sort.Slice(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.Key < b.Key
	})
}

func sortByEnd(ss []*Session) {
	sort.Slice(ss, func(i, j int) bool { return endsBefore(ss[i], ss[j]) })
}

// endsBefore is the order of Snapshot.Sessions: most recently active first,
// then by key.
func endsBefore(a, b *Session) bool {
	if a.End != b.End {
		return a.End > b.End
	}
	return a.Key < b.Key
}

func finishSession(s *Session) {
	sort.Slice(s.Subagents, func(i, j int) bool { return s.Subagents[i].Path < s.Subagents[j].Path })
	for _, f := range s.Files() {
		if f.Start != 0 && (s.Start == 0 || f.Start < s.Start) {
			s.Start = f.Start
		}
		if f.End > s.End {
			s.End = f.End
		}
		s.noteModTime(f.ModTime)
		s.APIErrors += f.APIErrors
		if f.Drift {
			s.Unverified = true
		}
	}
	cwdFrom := s.Main
	if s.Main != nil {
		s.MessageCount = s.Main.HumanPrompts + s.Main.MainAssistantIDs
		s.GitBranch = s.Main.GitBranch
		s.CostState = s.Main.CostState
		if !s.Main.SawEnvelope {
			s.Unverified = true
		}
	}
	s.Cwd = ""
	if cwdFrom != nil && cwdFrom.Cwd != "" {
		s.Cwd = cwdFrom.Cwd
	} else {
		for _, f := range s.Subagents {
			if f.Cwd != "" {
				s.Cwd = f.Cwd
				break
			}
		}
	}
	if s.Cwd != "" {
		s.Repo = lastElem(s.Cwd)
	} else {
		s.Repo = decodeProjectName(s.Project)
		s.Unverified = true
	}
	if s.GitBranch == "" {
		for _, f := range s.Subagents {
			if f.GitBranch != "" {
				s.GitBranch = f.GitBranch
			}
		}
	}
	s.Title = sessionTitle(s)
}

// sessionTitle: the last custom-title, else the last ai-title, else a summary
// line of the session's own files whose leafUuid is a line of this session,
// else the first prompt.
func sessionTitle(s *Session) string {
	if s.Main == nil {
		return ""
	}
	if s.Main.CustomTitle != "" {
		return s.Main.CustomTitle
	}
	if s.Main.AITitle != "" {
		return s.Main.AITitle
	}
	for i := len(s.Main.Summaries) - 1; i >= 0; i-- {
		if s.Main.HasUUID(s.Main.Summaries[i].Leaf) {
			return s.Main.Summaries[i].Text
		}
	}
	return s.Main.FirstPrompt
}

// lastElem returns the last path element of a POSIX or Windows path.
func lastElem(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return p
}

// decodeProjectName guesses a repo name from an encoded project folder. The
// encoding is lossy ('/', '.', '_' all became '-'), so this is the text after
// the last '-' run that likely was a separator: we take the whole tail after
// the last "--" or the last path-like segment.
func decodeProjectName(project string) string {
	p := strings.Trim(project, "-")
	if p == "" {
		return project
	}
	if i := strings.LastIndex(p, "-"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// MatchAgent reports whether s is the history of agent ("" matches every
// session).
func MatchAgent(s *Session, agent string) bool { return agent == "" || s.Agent == agent }

// Now is the snapshot's clock reading.
func (snap *Snapshot) Now() time.Time { return snap.cfg.Now() }

// Config returns the configuration the snapshot was built with.
func (snap *Snapshot) Config() Config { return snap.cfg }

// CoverageFrom is the oldest activity on disk (zero time when none),
// computed once per snapshot: an extension has the sessions and the starts
// of the snapshot it extends (a start that changes takes a full build), so
// it keeps that snapshot's value.
func (snap *Snapshot) CoverageFrom() time.Time {
	p := snap.oldest.Load()
	if p == nil {
		var min int64
		for _, s := range snap.Sessions {
			if s.Start != 0 && (min == 0 || s.Start < min) {
				min = s.Start
			}
		}
		p = &min
		snap.oldest.Store(p)
	}
	min := *p
	if min == 0 {
		return time.Time{}
	}
	return time.UnixMilli(min).UTC()
}

// IsLive reports whether s is live at the snapshot's clock.
func (snap *Snapshot) IsLive(s *Session) bool { return s.IsLive(snap.cfg.Now(), snap.cfg.LiveWindow) }

// RootsMissing reports whether no configured root exists.
func (snap *Snapshot) RootsMissing() bool {
	for _, r := range snap.Roots {
		if r.Exists {
			return false
		}
	}
	return true
}

// AddUsage adds one response's usage, priced with p.
func (t *Tally) AddUsage(p *pricing.Table, model string, u Usage) { t.add(p, model, u) }
