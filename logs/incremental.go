package logs

// extendSnapshot builds the next snapshot from prev when the only change on
// disk is lines appended to known files (a live session writing): it copies
// the responses, folds in the grown files' new and updated messages, and
// rebuilds only the sessions those files belong to. ok is false when the
// change needs a full build instead: a message that moves between sessions, a
// session whose start moved (ownership follows start order), or anything
// unusual. index is updated in place only when ok is true.
func extendSnapshot(prev *Snapshot, index map[uint64]int32, grown map[*FileSummary]*FileSummary) (*Snapshot, bool) {
	if len(grown) == 0 {
		return prev, true
	}
	// Which sessions change, and their new values.
	bySession := map[*Session]*Session{}
	for _, s := range prev.Sessions {
		var ns *Session
		for _, f := range s.Files() {
			if nf, ok := grown[f]; ok {
				if ns == nil {
					ns = &Session{ID: s.ID, Key: s.Key, Root: s.Root, ProjectDir: s.ProjectDir, Project: s.Project,
						Main: s.Main, Subagents: append([]*FileSummary(nil), s.Subagents...)}
				}
				if s.Main == f {
					ns.Main = nf
				}
				for i, sf := range ns.Subagents {
					if sf == f {
						ns.Subagents[i] = nf
					}
				}
			}
		}
		if ns != nil {
			bySession[s] = ns
		}
	}
	if len(bySession) == 0 {
		return nil, false
	}
	for old, nf := range grown {
		if old.SessionID != nf.SessionID {
			return nil, false // a legacy agent file learned its session: regroup
		}
	}
	isNew := map[*Session]bool{}
	for old, ns := range bySession {
		finishSession(ns)
		if ns.Start != old.Start {
			return nil, false
		}
		isNew[ns] = true
	}
	rs := append(make([]Response, 0, len(prev.Responses)+16), prev.Responses...)
	added := map[uint64]int32{}
	for i := range rs {
		r := &rs[i]
		if nf, ok := grown[r.File]; ok {
			r.File = nf
		}
		if ns, ok := bySession[r.Session]; ok {
			r.Session = ns
		}
	}
	lookup := func(k uint64) (int32, bool) {
		if i, ok := added[k]; ok {
			return i, true
		}
		i, ok := index[k]
		return i, ok
	}
	for old, nf := range grown {
		var ns *Session
		for o, n := range bySession {
			if o.Main == old || containsFile(o.Subagents, old) {
				ns = n
			}
		}
		if ns == nil {
			return nil, false
		}
		for i := range nf.Messages {
			m := &nf.Messages[i]
			if i < len(old.Messages) && old.Messages[i] == *m {
				continue // unchanged
			}
			if !m.Counts() {
				continue
			}
			if m.Key == 0 {
				if i < len(old.Messages) {
					return nil, false
				}
				rs = append(rs, Response{File: nf, Session: ns, Time: m.Time, Model: m.Model, Usage: m.Usage, Sidechain: m.Sidechain})
				continue
			}
			j, ok := lookup(m.Key)
			if !ok {
				added[m.Key] = int32(len(rs))
				rs = append(rs, Response{key: m.Key, File: nf, Session: ns, Time: m.Time, Model: m.Model, Usage: m.Usage, Sidechain: m.Sidechain})
				continue
			}
			r := &rs[j]
			if r.Session != ns {
				return nil, false // a copy of another session's message: let a full build decide
			}
			if !m.Sidechain && r.Sidechain {
				r.Sidechain, r.File = false, nf
			}
			if m.Usage.Output >= r.Usage.Output {
				r.Usage = m.Usage
				if m.Model != "" {
					r.Model = m.Model
				}
			}
		}
	}
	for i := range rs {
		r := &rs[i]
		if isNew[r.Session] {
			r.Cost, r.Priced = prev.Pricing.Cost(r.Model, pricingUsage(r.Usage))
			r.Session.Usage.addResponse(r)
		}
	}
	snap := &Snapshot{Roots: prev.Roots, Pricing: prev.Pricing, cfg: prev.cfg, Responses: rs}
	snap.Files = make([]*FileSummary, len(prev.Files))
	for i, f := range prev.Files {
		if nf, ok := grown[f]; ok {
			f = nf
		}
		snap.Files[i] = f
	}
	snap.Sessions = make([]*Session, len(prev.Sessions))
	for i, s := range prev.Sessions {
		if ns, ok := bySession[s]; ok {
			s = ns
		}
		snap.Sessions[i] = s
	}
	sortByEnd(snap.Sessions)
	for k, v := range added {
		index[k] = v
	}
	return snap, true
}

func containsFile(fs []*FileSummary, f *FileSummary) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}
