package logs

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Grouping keys of a usage report.
var GroupKeys = []string{"day", "week", "month", "session", "model", "repo"}

// ReportQuery selects responses for a usage report.
type ReportQuery struct {
	GroupBy []string // one or two of GroupKeys
	Range   TimeRange
	Repo    string // case-insensitive substring of repo or cwd
	Model   string // case-insensitive substring of the model id
}

// ReportRow is one group.
type ReportRow struct {
	Keys     map[string]string
	Sessions int
	Usage    Tally
}

// Report is a usage rollup.
type Report struct {
	Rows     []ReportRow // sorted by key
	Totals   Tally
	Sessions int
}

// ParseGroupBy validates a group_by argument ("day", "day,model").
func ParseGroupBy(v string) ([]string, error) {
	if strings.TrimSpace(v) == "" {
		return []string{"day"}, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > 2 {
		return nil, InvalidArgument("group_by", "group_by takes one key or two comma-separated keys of %s; got %q", strings.Join(GroupKeys, ", "), clipArg(v))
	}
	var out []string
	for _, raw := range parts {
		p := strings.TrimSpace(strings.ToLower(raw))
		if !slices.Contains(GroupKeys, p) {
			return nil, InvalidArgument("group_by", "group_by key %q is not one of %s", clipArg(strings.TrimSpace(raw)), strings.Join(GroupKeys, ", "))
		}
		if slices.Contains(out, p) {
			return nil, InvalidArgument("group_by", "group_by names %q twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// MatchRepo: repo is a case-insensitive substring of the repo name or cwd.
func MatchRepo(s *Session, repo string) bool {
	if repo == "" {
		return true
	}
	r := strings.ToLower(repo)
	return strings.Contains(strings.ToLower(s.Repo), r) || strings.Contains(strings.ToLower(s.Cwd), r)
}

// Report rolls up the deduplicated responses. A snapshot never changes, so
// its reports are kept: the same question asked again costs a lookup.
func (snap *Snapshot) Report(q ReportQuery) Report {
	key := fmt.Sprintf("%q|%d|%d|%q|%q", q.GroupBy, q.Range.Since, q.Range.Until, q.Repo, q.Model)
	snap.memoMu.Lock()
	rep, ok := snap.reports[key]
	snap.memoMu.Unlock()
	if ok {
		return rep
	}
	rep = snap.report(q)
	snap.memoMu.Lock()
	if snap.reports == nil || len(snap.reports) >= 64 {
		snap.reports = map[string]Report{}
	}
	snap.reports[key] = rep
	snap.memoMu.Unlock()
	return rep
}

func (snap *Snapshot) report(q ReportQuery) Report {
	loc := snap.cfg.Location
	type group struct {
		keys     map[string]string
		sessions map[*Session]struct{}
		usage    Tally
	}
	groups := map[string]*group{}
	all := map[*Session]struct{}{}
	var rep Report
	model := strings.ToLower(q.Model)
	// Calendar keys are formatted once per quarter hour, not per response.
	calendar := map[int64][3]string{}
	calKeys := func(quarter int64) [3]string {
		if k, ok := calendar[quarter]; ok {
			return k
		}
		t := time.UnixMilli(quarter * quarterMs).In(loc)
		y, w := t.ISOWeek()
		k := [3]string{t.Format("2006-01-02"), fmt.Sprintf("%04d-W%02d", y, w), t.Format("2006-01")}
		calendar[quarter] = k
		return k
	}
	modelOK := map[string]bool{}
	var id []byte
	add := func(s *Session, quarter int64, m string, u Tally) {
		var vals [2]string
		id = id[:0]
		for j, k := range q.GroupBy {
			vals[j] = groupValue(k, s, quarter, m, calKeys)
			if j > 0 {
				id = append(id, 0)
			}
			id = append(id, vals[j]...)
		}
		g := groups[string(id)]
		if g == nil {
			keys := make(map[string]string, len(q.GroupBy))
			for j, k := range q.GroupBy {
				keys[k] = vals[j]
			}
			g = &group{keys: keys, sessions: map[*Session]struct{}{}}
			groups[string(id)] = g
		}
		g.sessions[s] = struct{}{}
		g.usage.Merge(u)
		all[s] = struct{}{}
		rep.Totals.Merge(u)
	}
	for _, s := range snap.Sessions {
		if q.Repo != "" && !MatchRepo(s, q.Repo) {
			continue
		}
		for bi := range s.buckets {
			b := &s.buckets[bi]
			if model != "" {
				ok, seen := modelOK[b.model]
				if !seen {
					ok = strings.Contains(strings.ToLower(b.model), model)
					modelOK[b.model] = ok
				}
				if !ok {
					continue
				}
			}
			lo, hi := b.quarter*quarterMs, (b.quarter+1)*quarterMs
			switch {
			case q.Range.Contains(lo) && q.Range.Contains(hi-1):
				add(s, b.quarter, b.model, b.usage)
			case q.Range.Overlaps(lo, hi-1):
				// The range cuts this quarter hour: take its responses one by one.
				for ri := range s.responses {
					r := &s.responses[ri]
					if r.Time/quarterMs == b.quarter && r.Model == b.model && q.Range.Contains(r.Time) {
						var t Tally
						t.addResponse(r)
						add(s, b.quarter, b.model, t)
					}
				}
			}
		}
	}
	ids := make([]string, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		g := groups[id]
		rep.Rows = append(rep.Rows, ReportRow{Keys: g.keys, Sessions: len(g.sessions), Usage: g.usage})
	}
	rep.Sessions = len(all)
	return rep
}

func groupValue(key string, s *Session, quarter int64, model string, cal func(int64) [3]string) string {
	switch key {
	case "day":
		return cal(quarter)[0]
	case "week":
		return cal(quarter)[1]
	case "month":
		return cal(quarter)[2]
	case "session":
		return s.ID
	case "model":
		if model == "" {
			return "(unknown)"
		}
		return model
	case "repo":
		return s.Repo
	}
	return ""
}

// Pacing is the usage of a recent window.
type Pacing struct {
	Usage    Tally
	ByModel  map[string]*Tally
	Sessions []*Session // with usage in the window, most recent first
	First    int64
	Last     int64
}

// Pace sums the responses in [since, now].
func (snap *Snapshot) Pace(since int64) Pacing {
	p := Pacing{ByModel: map[string]*Tally{}}
	seen := map[*Session]int64{}
	for r := range snap.AllResponses() {
		if r.Time < since {
			continue
		}
		p.Usage.addResponse(r)
		t := p.ByModel[r.Model]
		if t == nil {
			t = &Tally{}
			p.ByModel[r.Model] = t
		}
		t.addResponse(r)
		if p.First == 0 || r.Time < p.First {
			p.First = r.Time
		}
		if r.Time > p.Last {
			p.Last = r.Time
		}
		if r.Time > seen[r.Session] {
			seen[r.Session] = r.Time
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
	now := snap.cfg.Now()
	for _, s := range snap.Sessions {
		c.SkippedLines += s.SkippedLines(s.IsLive(now, snap.cfg.LiveWindow))
	}
	return c
}

func (snap *Snapshot) computeCoverage() Coverage {
	c := Coverage{Models: map[string]*Tally{}, Tools: map[string]int{}, Versions: map[string]int{}}
	projects := map[string]struct{}{}
	for _, s := range snap.Sessions {
		c.Sessions++
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
			for name, n := range f.ToolCounts {
				c.Tools[name] += n
			}
			for _, v := range f.Versions {
				versions[v] = struct{}{}
			}
		}
		for v := range versions {
			c.Versions[v]++
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
	for r := range snap.AllResponses() {
		t := c.Models[r.Model]
		if t == nil {
			t = &Tally{}
			c.Models[r.Model] = t
		}
		t.addResponse(r)
	}
	sort.Strings(c.Accounting.Differing)
	return c
}

// costStateAgrees compares per-model tokens of the session with its cost-state.
func costStateAgrees(s *Session) bool {
	ours := map[string]Usage{}
	for m, t := range s.Usage.ByModel {
		ours[m] = t.Usage
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

// FileTouch is one tool call that read, edited or wrote a file.
type FileTouch struct {
	Session *Session
	Call    Call
}

// PathMatcher matches file paths: exact, by path-segment suffix, or by glob.
type PathMatcher struct {
	exact string
	re    *regexp.Regexp
}

// CompilePath validates a path argument.
func CompilePath(p string) (*PathMatcher, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, InvalidArgument("path", "path must not be empty")
	}
	if len(p) > 1000 || strings.ContainsRune(p, 0) {
		return nil, InvalidArgument("path", "path must be at most 1000 characters without NUL bytes")
	}
	norm := normPath(p)
	if !strings.ContainsAny(norm, "*?[") {
		return &PathMatcher{exact: strings.TrimSuffix(norm, "/")}, nil
	}
	if _, err := path.Match(strings.ReplaceAll(norm, "**", "*"), ""); err != nil {
		return nil, InvalidArgument("path", "path is not a valid glob: %v", err)
	}
	var sb strings.Builder
	rooted := strings.HasPrefix(norm, "/") || (len(norm) > 1 && norm[1] == ':')
	if rooted {
		sb.WriteString("^")
	} else {
		sb.WriteString("^(?:.*/)?")
	}
	for i := 0; i < len(norm); i++ {
		c := norm[i]
		switch {
		case c == '*' && i+1 < len(norm) && norm[i+1] == '*':
			i++
			if i+1 < len(norm) && norm[i+1] == '/' {
				i++
				sb.WriteString("(?:.*/)?")
			} else {
				sb.WriteString(".*")
			}
		case c == '*':
			sb.WriteString("[^/]*")
		case c == '?':
			sb.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(norm[i:], ']')
			if j < 0 {
				return nil, InvalidArgument("path", "path glob has an unclosed '['")
			}
			sb.WriteString(norm[i : i+j+1])
			i += j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	sb.WriteString("$")
	re, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, InvalidArgument("path", "path is not a valid glob")
	}
	return &PathMatcher{re: re}, nil
}

// normPath turns Windows separators into '/'.
func normPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// Match reports whether a file path from a transcript matches.
func (pm *PathMatcher) Match(file string) bool {
	f := normPath(file)
	if pm.re != nil {
		return pm.re.MatchString(f)
	}
	if f == pm.exact {
		return true
	}
	if strings.HasSuffix(f, pm.exact) {
		rest := f[:len(f)-len(pm.exact)]
		return strings.HasSuffix(rest, "/") || strings.HasPrefix(pm.exact, "/")
	}
	// Windows paths are case-insensitive.
	if len(f) > 1 && f[1] == ':' {
		lf, le := strings.ToLower(f), strings.ToLower(pm.exact)
		if lf == le || strings.HasSuffix(lf, "/"+strings.TrimPrefix(le, "/")) {
			return true
		}
	}
	return false
}

// FileActivity lists every touch of matching files in the sessions, newest first.
func (snap *Snapshot) FileActivity(pm *PathMatcher, sessions []*Session, tr TimeRange) []FileTouch {
	var out []FileTouch
	for _, s := range sessions {
		for _, f := range s.Files() {
			for _, c := range f.Calls {
				if c.Action == ActionNone || !tr.Contains(c.Time) || !pm.Match(c.Path) {
					continue
				}
				out = append(out, FileTouch{Session: s, Call: c})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Call.Time > out[j].Call.Time })
	return out
}
