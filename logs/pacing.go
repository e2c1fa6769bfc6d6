package logs

import "sort"

// Pacing is the usage of a recent window.
type Pacing struct {
	Usage    Tally
	ByModel  map[string]*Tally
	Sessions []*Session // with usage in the window, most recent first
	First    int64
	Last     int64
}

// Pace sums the responses in [since, now] of the sessions of agent ("" for
// every agent).
func (snap *Snapshot) Pace(since int64, agent string) Pacing {
	p := Pacing{ByModel: map[string]*Tally{}}
	seen := map[*Session]int64{}
	for s, r := range snap.AllResponses() {
		if r.Time < since || !MatchAgent(s, agent) {
			continue
		}
		p.Usage.addResponse(s, r)
		t := p.ByModel[r.Model()]
		if t == nil {
			t = &Tally{}
			p.ByModel[r.Model()] = t
		}
		t.addResponse(s, r)
		if p.First == 0 || r.Time < p.First {
			p.First = r.Time
		}
		if r.Time > p.Last {
			p.Last = r.Time
		}
		if r.Time > seen[s] {
			seen[s] = r.Time
		}
	}
	for s := range seen {
		p.Sessions = append(p.Sessions, s)
	}
	sort.Slice(p.Sessions, func(i, j int) bool {
		if seen[p.Sessions[i]] != seen[p.Sessions[j]] {
			return seen[p.Sessions[i]] > seen[p.Sessions[j]]
		}
		return p.Sessions[i].Key < p.Sessions[j].Key
	})
	return p
}
