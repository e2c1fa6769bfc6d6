package logs

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
)

// Coverage describes what the history holds.
type Coverage struct {
	Projects, Sessions, SubagentFiles, Entries, SkippedLines, Unverified int
	Bytes                                                                int64
	First, Last                                                          int64
	Models                                                               map[string]*Tally
	Tools                                                                map[string]int
	Versions                                                             map[string]int // version -> sessions
	Accounting                                                           AccountingCheck
}

// AccountingCheck compares Claude Code's own cost-state totals with ours.
type AccountingCheck struct {
	SessionsChecked int
	Agreeing        int
	Differing       []string
}

// Coverage summarises the whole snapshot. Everything but the skipped-line
// count (which depends on liveness, so on the clock) is computed once per
// snapshot.
func (snap *Snapshot) Coverage() Coverage {
	snap.coverageOnce.Do(func() { snap.coverage = snap.computeCoverage() })
	c := snap.coverage
	// Computed with every session not live; a live one's torn last line
	// does not count (it is being written), and only torn files differ.
	now := snap.cfg.Now()
	for _, s := range snap.torn {
		if s.IsLive(now, snap.cfg.LiveWindow) {
			c.SkippedLines -= s.SkippedLines(false) - s.SkippedLines(true)
		}
	}
	return c
}

func (snap *Snapshot) computeCoverage() Coverage {
	c := Coverage{Models: map[string]*Tally{}, Tools: map[string]int{}, Versions: map[string]int{}}
	projects := map[string]struct{}{}
	for _, s := range snap.Sessions {
		c.Sessions++
		if s.SkippedLines(false) != s.SkippedLines(true) {
			snap.torn = append(snap.torn, s)
		}
		c.SkippedLines += s.SkippedLines(false)
		projects[s.ProjectDir] = struct{}{}
		c.SubagentFiles += len(s.Subagents)
		if s.Unverified {
			c.Unverified++
		}
		if s.Start != 0 && (c.First == 0 || s.Start < c.First) {
			c.First = s.Start
		}
		if s.End > c.Last {
			c.Last = s.End
		}
		versions := map[string]struct{}{}
		for _, f := range s.Files() {
			c.Entries += f.Entries
			c.Bytes += f.Size
			for _, v := range f.Versions {
				versions[v] = struct{}{}
			}
		}
		for v := range versions {
			c.Versions[v]++
		}
		for _, call := range s.Calls() {
			c.Tools[call.Name()]++
		}
		if s.CostState != nil {
			c.Accounting.SessionsChecked++
			if costStateAgrees(s) {
				c.Accounting.Agreeing++
			} else if len(c.Accounting.Differing) < 20 {
				c.Accounting.Differing = append(c.Accounting.Differing, s.ID)
			}
		}
	}
	c.Projects = len(projects)
	for s, r := range snap.AllResponses() {
		t := c.Models[r.Model()]
		if t == nil {
			t = &Tally{}
			c.Models[r.Model()] = t
		}
		t.addResponse(s, r)
	}
	sort.Strings(c.Accounting.Differing)
	return c
}

// costStateAgrees compares per-model tokens of the session with its cost-state.
func costStateAgrees(s *Session) bool {
	ours := map[string]Usage{}
	for _, t := range s.Usage.ByModel {
		ours[t.Model] = t.Usage
	}
	if len(ours) != len(s.CostState.Models) {
		// Models with no usage on one side still agree when both are zero.
		for m, u := range s.CostState.Models {
			if _, ok := ours[m]; !ok && u.Total() != 0 {
				return false
			}
		}
	}
	for m, u := range ours {
		cs := s.CostState.Models[m]
		if cs.Input != u.Input || cs.Output != u.Output || cs.CacheRead != u.CacheRead || cs.CacheCreate() != u.CacheCreate() {
			return false
		}
	}
	return true
}

// CompareVersions orders version strings numerically segment by segment
// ("2.1.83" before "2.1.232"); a segment that is not a number compares as
// text after the numbers, and ties fall back to the whole string.
func CompareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		switch {
		case errx == nil && erry == nil && x != y:
			return cmp.Compare(x, y)
		case errx == nil && erry != nil:
			return -1
		case errx != nil && erry == nil:
			return 1
		case errx != nil && erry != nil && as[i] != bs[i]:
			return strings.Compare(as[i], bs[i])
		}
	}
	if c := cmp.Compare(len(as), len(bs)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
