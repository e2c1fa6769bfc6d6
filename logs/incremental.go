package logs

import "slices"

// extendSnapshot builds the next snapshot from prev when the only change on
// disk is lines appended to known files (a live session writing): only the
// sessions of the grown files are rebuilt, from their previous responses plus
// the files' new and updated messages. ok is false when the change needs a
// full build instead: a message that moves between sessions, a session whose
// start moved (ownership follows start order), a file that changed session.
// The index is updated in place; after ok=false the caller rebuilds it.
func extendSnapshot(prev *Snapshot, index *respIndex, grown map[*FileSummary]*FileSummary) (*Snapshot, bool) {
	if len(grown) == 0 {
		return prev, true
	}
	for old, nf := range grown {
		if old.SessionID != nf.SessionID {
			return nil, false // a legacy agent file learned its session: regroup
		}
	}
	// The new value of every session with a grown file.
	next := map[*Session]*Session{}
	for _, s := range prev.Sessions {
		var ns *Session
		for _, f := range s.Files() {
			nf, ok := grown[f]
			if !ok {
				continue
			}
			if ns == nil {
				ns = &Session{ID: s.ID, Agent: s.Agent, Key: s.Key, Root: s.Root, Machine: s.Machine, ProjectDir: s.ProjectDir, Project: s.Project,
					Main: s.Main, Subagents: append([]*FileSummary(nil), s.Subagents...)}
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
		if ns == nil {
			continue
		}
		finishSession(ns)
		if ns.Start != s.Start {
			return nil, false
		}
		ns.responses = append(make([]Response, 0, len(s.responses)+8), s.responses...)
		ns.wide = slices.Clip(s.wide) // shared with s until ns adds one: append copies
		for i := range ns.responses {
			r := &ns.responses[i]
			r.Session = ns
			if nf, ok := grown[r.File]; ok {
				r.File = nf
			}
		}
		ns.home, s.home.s = s.home, ns // the index finds ns where it found s
		next[s] = ns
	}
	for old, ns := range next {
		for _, f := range old.Files() {
			nf, ok := grown[f]
			if !ok {
				continue
			}
			before := f.messageList()
			for i, m := range nf.Messages() {
				if i < len(before) && sameMessage(&before[i], &m) {
					continue // unchanged
				}
				if !m.Counts() {
					continue
				}
				if m.Key == 0 && i < len(before) {
					return nil, false // an unkeyed message changed: nothing to match it by
				}
				if ref, ok := index.get(m.Key); ok && m.Key != 0 && ref.h != ns.home {
					return nil, false // a copy of another session's message: let a full build decide
				}
				claimMessage(index, ns, nf, &m)
			}
		}
		ns.ownCalls(index)
		ns.tally(prev.Pricing)
	}
	snap := &Snapshot{Roots: prev.Roots, Pricing: prev.Pricing, cfg: prev.cfg}
	snap.Files = make([]*FileSummary, len(prev.Files))
	for i, f := range prev.Files {
		if nf, ok := grown[f]; ok {
			f = nf
		}
		snap.Files[i] = f
	}
	snap.Sessions = make([]*Session, len(prev.Sessions))
	for i, s := range prev.Sessions {
		if ns, ok := next[s]; ok {
			s = ns
		}
		snap.Sessions[i] = s
	}
	sortByEnd(snap.Sessions)
	return snap, true
}

// sameMessage reports whether a message is unchanged by an append.
func sameMessage(a, b *Message) bool {
	return a.Key == b.Key && a.Model == b.Model && a.Time == b.Time && a.Usage == b.Usage &&
		a.Sidechain == b.Sidechain && a.Synthetic == b.Synthetic && a.HasUsage == b.HasUsage &&
		a.Line == b.Line && slices.Equal(a.Advisors, b.Advisors)
}
