package logs

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agent-activity/agent-activity/pricing"
)

// extendSnapshot builds the next snapshot from prev when the only changes on
// disk are lines appended to known files (a live session writing) and new
// files (added: a session or a subagent starting): only the sessions of the
// grown and added files are rebuilt, from their previous responses plus the
// files' new and updated messages, and an added file that starts a session
// makes a new one. ok is false when the change needs a full build instead: a
// message that moves between sessions, a session whose start moved
// (ownership follows start order), a file that changed session, an added
// file holding a message another file has.
// The index is updated in place; after ok=false the caller rebuilds it.
// fewChanged is how many grown files and changed sessions an extension
// finds by scanning the lists rather than looking every element up (a
// variable for the test that takes the other way too).
var fewChanged = 8

func extendSnapshot(prev *Snapshot, index *respIndex, grown map[*FileSummary]*FileSummary, added []*FileSummary, st *extendStats) (*Snapshot, bool) {
	if len(grown) == 0 && len(added) == 0 {
		return prev, true
	}
	for old, nf := range grown {
		if old.SessionID != nf.SessionID {
			return nil, false // a legacy agent file learned its session: regroup
		}
	}
	// The sessions of the grown files, found through the files' homes (a
	// walk of every session would visit each through its pointer).
	var touched []*Session
	for old := range grown {
		if old.home == nil || old.home.s == nil || !slices.Contains(old.home.s.Files(), old) {
			return nil, false // not a file of prev's sessions: let a full build group it
		}
		if !slices.Contains(touched, old.home.s) {
			touched = append(touched, old.home.s)
		}
	}
	// Each added file joins the session a full build would put it in: one of
	// prev's (joins), or one it starts (born).
	joins := map[*Session][]*FileSummary{}
	var born []*Session
	for _, nf := range added {
		sid, key := sessionOf(nf)
		if s := sessionByKey(prev.Sessions, sid, key); s != nil {
			joins[s] = append(joins[s], nf)
			if !slices.Contains(touched, s) {
				touched = append(touched, s)
			}
			continue
		}
		ns := sessionByKey(born, sid, key)
		if ns == nil {
			ns = newSession(nf, sid, key)
			born = append(born, ns)
		}
		if nf.Kind == MainFile && ns.Main != nil {
			return nil, false
		}
		ns.add(nf)
	}
	if len(added) > 0 && namedElsewhere(prev.Files, grown, added) {
		return nil, false
	}
	// The new value of every session with a grown file.
	next := map[*Session]*Session{}
	for _, s := range touched {
		var ns *Session
		for i := -1; i < len(s.Subagents); i++ {
			f := s.Main
			if i >= 0 {
				f = s.Subagents[i]
			}
			nf, ok := grown[f]
			if f == nil || !ok {
				continue
			}
			if ns == nil {
				ns = s.successor()
			}
			if ns.Main == f {
				ns.Main = nf
			}
			for i, sf := range ns.Subagents {
				if sf == f {
					ns.Subagents[i] = nf
				}
			}
		}
		if js := joins[s]; len(js) > 0 {
			if ns == nil {
				ns = s.successor()
			}
			for _, nf := range js {
				if nf.Kind == MainFile && ns.Main != nil {
					return nil, false
				}
				ns.add(nf)
			}
		}
		if ns == nil {
			continue
		}
		finishSession(ns)
		if ns.Start != s.Start {
			return nil, false
		}
		ns.responses = append(make([]Response, 0, len(s.responses)+8), s.responses...)
		if s.wide != nil { // shared with s until ns adds one: append copies
			w := slices.Clip(*s.wide)
			ns.wide = &w
		}
		s.home.s = ns // the index finds ns where it found s
		next[s] = ns
	}
	var models lastName
	for old, ns := range next {
		for _, f := range old.Files() {
			nf, ok := grown[f]
			if !ok {
				continue
			}
			before, after := f.messageList(), nf.messageList()
			from, ok := ns.dropTakenBack(index, before, after, nf.sharedMsgs)
			if !ok {
				return nil, false
			}
			for i := from; i < after.Len(); i++ { // the messages before from are unchanged
				m := *after.At(i)
				if i < before.Len() && sameMessage(before.At(i), &m) {
					continue // unchanged
				}
				if !m.Counts() {
					continue
				}
				if m.Key == 0 && i < before.Len() {
					return nil, false // an unkeyed message changed: nothing to match it by
				}
				if ref, ok := index.get(m.Key); ok && m.Key != 0 && ref.h != ns.home {
					return nil, false // a copy of another session's message: let a full build decide
				}
				claimMessage(index, ns, nf, &m, &models)
			}
		}
		for _, nf := range joins[old] {
			if !ns.claimAdded(index, nf) {
				return nil, false
			}
			st.joined++
		}
		if ns.keptResponses(old) {
			ns.continueTally(old, prev.Pricing, prev.cfg.Location)
			if len(joins[old]) == 0 && ns.keptCalls(old, grown) {
				ns.continueCalls(old, index)
				st.continued++
			} else {
				ns.ownCalls(index)
				st.tallyOnly++
			}
		} else {
			ns.ownCalls(index)
			ns.tally(prev.Pricing, prev.cfg.Location)
			st.retallied++
		}
	}
	for _, ns := range born {
		finishSession(ns)
		index.addHome(ns.home)
		for _, f := range ns.Files() {
			if !ns.claimAdded(index, f) {
				return nil, false
			}
		}
		ns.ownCalls(index)
		ns.tally(prev.Pricing, prev.cfg.Location)
		st.born++
	}
	snap := &Snapshot{Roots: prev.Roots, Pricing: prev.Pricing, cfg: prev.cfg}
	// The same sessions with the same starts, and the born ones.
	if p := prev.oldest.Load(); p != nil {
		oldest := *p
		for _, ns := range born {
			if ns.Start != 0 && (oldest == 0 || ns.Start < oldest) {
				oldest = ns.Start
			}
		}
		snap.oldest.Store(&oldest)
	}
	// The files, and the sessions most recently active first as sortByEnd
	// orders them: the others keep their order, and each new value goes
	// where it sorts. The lists are copied whole and the few elements that
	// changed found by a scan of pointers (a map lookup per element cost
	// about 0.7 ms per append at 4 GB: 15,000 files, 12,000 sessions).
	snap.Files = slices.Clone(prev.Files)
	snap.Sessions = make([]*Session, 0, len(prev.Sessions)+len(next)+len(born))
	if len(grown) <= fewChanged && len(next) <= fewChanged {
		for old, nf := range grown {
			i := slices.Index(snap.Files, old)
			if i < 0 {
				return nil, false
			}
			snap.Files[i] = nf
		}
		snap.Sessions = append(snap.Sessions, prev.Sessions...)
		for old := range next {
			i := slices.Index(snap.Sessions, old)
			if i < 0 {
				return nil, false
			}
			snap.Sessions = slices.Delete(snap.Sessions, i, i+1)
		}
	} else {
		for i, f := range snap.Files {
			if nf, ok := grown[f]; ok {
				snap.Files[i] = nf
			}
		}
		for _, s := range prev.Sessions {
			if next[s] == nil {
				snap.Sessions = append(snap.Sessions, s)
			}
		}
	}
	for _, nf := range added { // where a full build's sort by path puts it
		i, _ := slices.BinarySearchFunc(snap.Files, nf.Path, func(f *FileSummary, p string) int { return strings.Compare(f.Path, p) })
		snap.Files = slices.Insert(snap.Files, i, nf)
	}
	for _, ns := range next {
		snap.Sessions = insertByEnd(snap.Sessions, ns)
	}
	for _, ns := range born {
		snap.Sessions = insertByEnd(snap.Sessions, ns)
	}
	if prev.flat {
		snap.runs, snap.flat, snap.runsMemo = prev.runs, true, prev.runsMemo
		snap.gone = slices.Clone(prev.gone)
		for _, f := range prev.fresh {
			if next[f] == nil {
				snap.fresh = append(snap.fresh, f)
			}
		}
		for old, ns := range next {
			if !slices.Contains(prev.fresh, old) {
				snap.gone = append(snap.gone, old) // its run is in runs
			}
			snap.fresh = append(snap.fresh, ns)
		}
		snap.fresh = append(snap.fresh, born...) // no run of theirs is in runs
		sortByEnd(snap.fresh)
	}
	return snap, true
}

// successor is the next value of s, with s's files and home, for an
// extension to change (its lists are its own).
func (s *Session) successor() *Session {
	return &Session{ID: s.ID, Agent: s.Agent, Key: s.Key, Root: s.Root, Machine: s.Machine, ProjectDir: s.ProjectDir, Project: s.Project,
		Main: s.Main, Subagents: append([]*FileSummary(nil), s.Subagents...), home: s.home}
}

// insertByEnd puts s into ss where sortByEnd would.
func insertByEnd(ss []*Session, s *Session) []*Session {
	i := sort.Search(len(ss), func(j int) bool { return endsBefore(s, ss[j]) })
	return slices.Insert(ss, i, s)
}

// sessionByKey is the session of ss with this id and key, or nil.
func sessionByKey(ss []*Session, sid, key string) *Session {
	for _, s := range ss {
		if s.ID == sid && s.Key == key {
			return s
		}
	}
	return nil
}

// claimAdded claims the messages of f, a file an extension added to s, as a
// full build would: in order, each new or a copy of one f holds before it.
// A message another file already has is false: where a full build would give
// it (start order, then the order of a session's files) is left to one.
func (s *Session) claimAdded(index *respIndex, f *FileSummary) bool {
	from := len(s.responses) // f's responses are appended from here
	var models lastName
	for _, m := range f.Messages() {
		if !m.Counts() {
			continue
		}
		if ref, ok := index.get(m.Key); ok && m.Key != 0 {
			if ref.h != s.home || int(ref.i) < from || s.responses[ref.i].file != f.no {
				return false
			}
		}
		claimMessage(index, s, f, &m, &models)
	}
	return true
}

// namedElsewhere reports whether a call of a file other than the added ones
// names a message that an added file holds: that call goes with its message,
// so its owner may change, and only a full build looks at every call. A call
// whose message counts is no such case: that message is a response, in the
// index, and claimAdded declines a copy of it; so only the calls of files
// marked namesUncounted are looked at.
func namedElsewhere(files []*FileSummary, grown map[*FileSummary]*FileSummary, added []*FileSummary) bool {
	var marked []*FileSummary
	for _, f := range files {
		if f.namesUncounted {
			marked = append(marked, f)
		}
	}
	for _, f := range grown {
		if f.namesUncounted {
			marked = append(marked, f)
		}
	}
	if len(marked) == 0 {
		return false // the common case: the added files' messages are not read
	}
	keys := map[uint64]bool{}
	for _, f := range added {
		for _, m := range f.Messages() {
			if m.Key != 0 {
				keys[m.Key] = true
			}
		}
	}
	for _, f := range marked {
		for i := range f.Calls {
			if keys[f.Calls[i].Msg] {
				return true
			}
		}
	}
	return false
}

// sameMessage reports whether a message is unchanged by an append.
func sameMessage(a, b *Message) bool {
	return a.Key == b.Key && a.Model == b.Model && a.Time == b.Time && a.Usage == b.Usage &&
		a.Sidechain == b.Sidechain && a.Synthetic == b.Synthetic && a.HasUsage == b.HasUsage &&
		a.Line == b.Line && slices.Equal(a.Advisors, b.Advisors)
}

// extendStats counts how extensions rebuilt their sessions (tests and
// benchmarks read them): continued from the session before, tallies only, in
// full, or made for a file that starts a session; and the files added to
// sessions that were there (joined).
type extendStats struct{ continued, tallyOnly, retallied, born, joined int }

// keptResponses reports whether the extended session s begins with every
// response of old, unchanged (a file's extended summary has its number),
// so that its tallies can go on from old's. A kept response whose copy was
// merged again has the same model and usage, so it has the same price
// (Session.PriceOf).
func (s *Session) keptResponses(old *Session) bool {
	if len(s.responses) < len(old.responses) {
		return false
	}
	for i := range old.responses {
		a, b := &old.responses[i], &s.responses[i]
		if a.key != b.key || a.file != b.file || a.Time != b.Time || a.model != b.model || !a.sameUsage(old, b, s) ||
			a.Sidechain != b.Sidechain || a.Advisor != b.Advisor || a.has(respAdvised) != b.has(respAdvised) {
			return false
		}
	}
	return true
}

// continueTally is tally for a session whose first responses are old's
// (keptResponses): old's sums are copied and the new responses added in
// order, the same additions a full tally makes, so the sums are the same to
// the last bit.
func (s *Session) continueTally(old *Session, p *pricing.Table, loc *time.Location) {
	s.Usage = old.Usage
	s.Usage.ByModel = slices.Clone(old.Usage.ByModel)
	s.buckets = append(make([]bucket, 0, len(old.buckets)+4), old.buckets...)
	s.tallyFrom(p, loc, len(old.responses))
}

// keptCalls reports whether old's tool calls keep their owners in the
// extended session s: its responses begin with old's (keptResponses), no
// call old had changed the response it belongs to, and none belongs to a
// response this extension added (its owner may be another file).
func (s *Session) keptCalls(old *Session, grown map[*FileSummary]*FileSummary) bool {
	var added []uint64
	for i := len(old.responses); i < len(s.responses); i++ {
		if k := s.responses[i].key; k != 0 {
			added = append(added, k)
		}
	}
	if len(added) > 8 {
		return false // a large append: a full pass costs little more
	}
	for _, f := range old.Files() {
		nf := f
		if g, ok := grown[f]; ok {
			nf = g
		}
		if len(nf.Calls) < len(f.Calls) {
			return false
		}
		for i := range f.Calls {
			m := f.Calls[i].Msg
			if nf.Calls[i].Msg != m || m != 0 && slices.Contains(added, m) {
				return false
			}
		}
	}
	return true
}

// continueCalls is ownCalls for a session whose old calls keep their owners
// (keptCalls): old's runs, moved to the extended files, each with the file's
// new calls that the session owns after its old ones, as ownCalls lists them.
func (s *Session) continueCalls(old *Session, index *respIndex) {
	files, before := s.Files(), old.Files()
	s.calls, s.numCalls = make([]callRun, 0, len(files)), 0
	k := 0
	for fi, f := range files {
		was := before[fi]
		run := callRun{f: f} // nil own: every call, as for a file that had none
		switch {
		case k < len(old.calls) && old.calls[k].f == was:
			run.own = old.calls[k].own // appending past its length leaves old's list as it was
			k++
		case len(was.Calls) > 0:
			run.own = []int32{} // the session owned none of was's calls
		}
		s.addRun(index, run, len(was.Calls))
	}
}

// dropTakenBack removes from s the responses of the messages of a grown file
// that its read took back: a copy of zero usage is a response of its own
// until a later copy claims it, and the read that sees that copy drops the
// message (before: the file's messages then, after: now). ok is false when
// such a response is not s's alone to drop: a full build decides. from is
// the first message that differs between the two lists. The first same
// messages of after are before's own, still shared (FileSummary.sharedMsgs):
// they are not compared.
func (s *Session) dropTakenBack(index *respIndex, before, after msgList, same int) (from int, ok bool) {
	d := min(same, len(before.a), len(after.a))
	for d < before.Len() && d < after.Len() && sameMessage(before.At(d), after.At(d)) {
		d++
	}
	if d == before.Len() {
		return d, true // only appended
	}
	now := make(map[uint64]bool, after.Len()-d)
	for i := d; i < after.Len(); i++ {
		now[after.At(i).Key] = true
	}
	for i := d; i < before.Len(); i++ {
		m := before.At(i)
		if !m.Counts() || m.Key == 0 || now[m.Key] {
			continue
		}
		ref, ok := index.get(m.Key)
		if !ok || ref.h != s.home || s.responses[ref.i].has(respAdvised) {
			return d, false
		}
		s.responses = slices.Delete(s.responses, int(ref.i), int(ref.i)+1)
		index.del(m.Key)
		for j := int(ref.i); j < len(s.responses); j++ {
			if k := s.responses[j].key; k != 0 {
				index.put(k, respRef{s.home, int32(j)})
			}
		}
	}
	return d, true
}
