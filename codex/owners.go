package codex

import "sort"

// Owned says which of a rollout's responses and calls it counts once
// several rollouts are read together.
type Owned struct {
	Responses []bool // parallel to Rollout.Responses
	Calls     []bool // parallel to Rollout.Calls
	// FromAbsentParent counts the copied responses and calls this rollout
	// owns because no rollout given holds them as its own: the parent file
	// is absent (deleted, not synced, or outside the roots read).
	FromAbsentParent int
	// ParentMissing is set for a fork whose parent (ForkedFrom) is not
	// among the rollouts given.
	ParentMissing bool
}

// AssignOwners decides, for every response and call of rs, which rollout
// counts it: each Key is counted once, where it first appeared. A rollout
// that holds it as its own beats one that holds a copy; among equals the
// earlier session start wins, then the smaller session id, then the
// earlier position in rs (so a file listed twice counts once). A copy whose
// original is in no rollout given (a fork whose parent file is absent) is
// owned by the earliest rollout holding it, and counted in
// FromAbsentParent. The result is parallel to rs.
func AssignOwners(rs []*Rollout) []Owned {
	type claim struct {
		rollout, index int
		copied, call   bool
	}
	best := map[Key]claim{}
	better := func(a, b claim) bool { // a beats b
		if a.copied != b.copied {
			return !a.copied
		}
		ra, rb := rs[a.rollout], rs[b.rollout]
		if ra.Start != rb.Start {
			return ra.Start < rb.Start
		}
		if ra.ID != rb.ID {
			return ra.ID < rb.ID
		}
		return a.rollout < b.rollout
	}
	offer := func(k Key, c claim) {
		if cur, ok := best[k]; !ok || better(c, cur) {
			best[k] = c
		}
	}
	// Calls and responses live in separate key spaces by construction
	// (hashKey prefixes), so one map serves both.
	for i, r := range rs {
		for j, x := range r.Responses {
			offer(x.Key, claim{rollout: i, index: j, copied: x.Copied})
		}
		for j, x := range r.Calls {
			offer(x.Key, claim{rollout: i, index: j, copied: x.Copied, call: true})
		}
	}
	out := make([]Owned, len(rs))
	ids := make([]string, 0, len(rs))
	for i, r := range rs {
		out[i] = Owned{Responses: make([]bool, len(r.Responses)), Calls: make([]bool, len(r.Calls))}
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	for _, c := range best {
		o := &out[c.rollout]
		if c.call {
			o.Calls[c.index] = true
		} else {
			o.Responses[c.index] = true
		}
		if c.copied {
			o.FromAbsentParent++
		}
	}
	for i, r := range rs {
		if r.Fork && r.ForkedFrom != "" {
			j := sort.SearchStrings(ids, r.ForkedFrom)
			out[i].ParentMissing = j == len(ids) || ids[j] != r.ForkedFrom
		}
	}
	return out
}
