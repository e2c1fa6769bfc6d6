package logs

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Grouping keys of a usage report.
var GroupKeys = []string{"day", "week", "month", "session", "model", "repo", "agent", "machine"}

// ReportQuery selects responses for a usage report.
type ReportQuery struct {
	GroupBy []string // one or two of GroupKeys
	Range   TimeRange
	Repo    string // case-insensitive substring of repo or cwd
	Model   string // case-insensitive substring of the model id
	Agent   string // only sessions of this agent; "" for all
}

// ReportRow is one group.
type ReportRow struct {
	GroupBy  []string  // the query's keys, shared by the report's rows
	Vals     [2]string // the group's value of each key, in GroupBy's order
	Sessions int
	Usage    Tally
}

// Key is the row's value of a grouping key, and whether the report is
// grouped by it.
func (r *ReportRow) Key(k string) (string, bool) {
	for i, g := range r.GroupBy {
		if g == k {
			return r.Vals[i], true
		}
	}
	return "", false
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
// its reports are kept, within memoRows: the same question asked again
// costs a lookup.
func (snap *Snapshot) Report(q ReportQuery) Report {
	key := q.key()
	snap.memoMu.Lock()
	rep, ok := snap.reports.get(key)
	snap.memoMu.Unlock()
	if ok {
		return rep
	}
	rep = snap.report(q, key)
	snap.memoMu.Lock()
	snap.reports.put(key, len(rep.Rows), func() Report { return rep })
	snap.memoMu.Unlock()
	return rep
}

// key identifies the query in the memos.
func (q ReportQuery) key() string {
	return fmt.Sprintf("%q|%d|%d|%q|%q|%q", q.GroupBy, q.Range.Since, q.Range.Until, q.Repo, q.Model, q.Agent)
}

// memoRows bounds the rows each memo of reports holds (a snapshot's
// Reports, and the runs' states shared by the snapshots of a build): a row
// kept costs some 750 bytes in the two. A report of more than half as many
// rows is not kept, and one that would take a memo past the bound empties
// it first, so that two of the largest kept fit together. What the warm
// answers ask again stays (a day, week or month apiece, or by model, over
// a year); a report by session and model at 4 GB has 13,885 rows, which
// held 10.4 MB for as long as the snapshot lived, to answer again in 56 ms
// instead of 72-99 (docs/choices.md, "Memos within a row budget").
var memoRows = 4096 // a variable for the tests alone

// memoEntries bounds the entries of a memo as memoRows its rows: reports of
// no rows cost a lookup's entry each.
const memoEntries = 64

// rowMemo is a memo of reports by query within memoRows rows and
// memoEntries entries; its zero value is empty, and its owner locks it.
type rowMemo[V any] struct {
	byKey map[string]memoed[V]
	rows  int // the rows of byKey's values
}

type memoed[V any] struct {
	v    V
	rows int
}

func (m *rowMemo[V]) get(key string) (V, bool) {
	e, ok := m.byKey[key]
	return e.v, ok
}

// put keeps the value made for key, of rows rows, in place of the one kept
// before for it (made at the same time, or before an append moved the
// snapshots on); made is called only when the value is kept.
func (m *rowMemo[V]) put(key string, rows int, made func() V) {
	if rows > memoRows/2 {
		return
	}
	if old, ok := m.byKey[key]; ok {
		m.rows -= old.rows
		delete(m.byKey, key)
	}
	if m.byKey == nil || len(m.byKey) >= memoEntries || m.rows+rows > memoRows {
		m.byKey, m.rows = map[string]memoed[V]{}, 0
	}
	m.byKey[key] = memoed[V]{made(), rows}
	m.rows += rows
}

// reportGroup is a row of a report being added up.
type reportGroup struct {
	vals     [2]string // the group's value of each key, in the query's order
	sessions int
	last     *Session // the session counted last: sessions are walked one at a time
	usage    Tally
}

// runsReport is a report's state once the runs of a full build are added
// (without the sessions extensions replaced): the snapshots an extension
// makes share their runs, so a report of the same query goes on from it
// and adds only the replaced sessions' new values, in the order a walk of
// everything would, so that every sum is the same float.
type runsReport struct {
	gone     int // len(Snapshot.gone) when it was made: gone only grows along extensions
	groups   map[string]*reportGroup
	sessions int
	totals   Tally
	counted  *Session
}

// runsMemo holds runsReports by query, for the snapshots that share a full
// build's runs.
type runsMemo struct {
	mu  sync.Mutex
	byQ rowMemo[runsReport]
}

func (m *runsMemo) get(key string, gone int) (runsReport, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byQ.get(key)
	return r, ok && r.gone == gone
}

// put keeps the state made by a walk of groups groups (see rowMemo.put).
func (m *runsMemo) put(key string, groups int, r func() runsReport) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byQ.put(key, groups, r)
}

// cloneGroups copies the groups, so that adding to the copy leaves them as
// they are.
func cloneGroups(groups map[string]*reportGroup) map[string]*reportGroup {
	out := make(map[string]*reportGroup, len(groups))
	for id, g := range groups {
		c := *g
		out[id] = &c
	}
	return out
}

func (snap *Snapshot) report(q ReportQuery, key string) Report {
	type group = reportGroup
	groups := map[string]*group{}
	var rep Report
	model := strings.ToLower(q.Model)
	modelOK := map[string]bool{}
	var id []byte
	var g *group // the group added to last: a session's next bucket is mostly in it too
	var gVals [2]string
	lastDate, lastKeys := -1, [3]string{}
	keysOf := func(date int) *[3]string {
		if date != lastDate {
			lastDate, lastKeys = date, dateKeys(date)
		}
		return &lastKeys
	}
	var counted *Session
	add := func(s *Session, date int, m string, u Tally) {
		var vals [2]string
		id = id[:0]
		for j, k := range q.GroupBy {
			vals[j] = groupValue(k, s, keysOf(date), m)
			if j > 0 {
				id = append(id, 0)
			}
			id = append(id, vals[j]...)
		}
		if g == nil || vals != gVals {
			g = groups[string(id)]
		}
		if g == nil {
			g = &group{vals: vals}
			groups[string(id)] = g
		}
		gVals = vals
		if g.last != s {
			g.last = s
			g.sessions++
		}
		g.usage.Merge(u)
		if counted != s {
			counted = s
			rep.Sessions++
		}
		rep.Totals.Merge(u)
	}
	visit := func(s *Session, buckets []bucket) {
		if q.Repo != "" && !MatchRepo(s, q.Repo) || !MatchAgent(s, q.Agent) {
			return
		}
		for bi := range buckets {
			b := &buckets[bi]
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
				add(s, b.date, b.model, b.usage)
			case q.Range.Overlaps(lo, hi-1):
				// The range cuts this quarter hour: take its responses one by one.
				for ri := range s.responses {
					r := &s.responses[ri]
					if r.Time/quarterMs == b.quarter && r.Model() == b.model && q.Range.Contains(r.Time) {
						var t Tally
						t.addResponse(s, r)
						add(s, b.date, b.model, t)
					}
				}
			}
		}
	}
	if snap.flat {
		// The buckets in a row; a session an extension replaced is read
		// from its new value, after the others.
		if st, ok := snap.runsMemo.get(key, len(snap.gone)); ok {
			groups, rep.Sessions, rep.Totals, counted = cloneGroups(st.groups), st.sessions, st.totals, st.counted
		} else {
			for _, r := range snap.runs {
				if !slices.Contains(snap.gone, r.s) {
					visit(r.s, r.b)
				}
			}
			snap.runsMemo.put(key, len(groups), func() runsReport {
				return runsReport{gone: len(snap.gone), groups: cloneGroups(groups), sessions: rep.Sessions, totals: rep.Totals, counted: counted}
			})
		}
		g = nil // the memo of the last group is this walk's own
		for _, s := range snap.fresh {
			visit(s, s.buckets)
		}
	} else {
		for _, s := range snap.Sessions {
			visit(s, s.buckets)
		}
	}
	ids := make([]string, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	groupBy := slices.Clone(q.GroupBy) // the rows' own: a memo hands them to other callers
	if len(ids) > 0 {
		rep.Rows = make([]ReportRow, 0, len(ids))
	}
	for _, id := range ids {
		g := groups[id]
		rep.Rows = append(rep.Rows, ReportRow{GroupBy: groupBy, Vals: g.vals, Sessions: g.sessions, Usage: g.usage})
	}
	return rep
}

// localDate is the local date of a quarter hour in loc, as y*10000+m*100+d.
// It is found once per bucket, when the bucket is made.
func localDate(quarter int64, loc *time.Location) int {
	y, m, d := time.UnixMilli(quarter * quarterMs).In(loc).Date()
	return y*10000 + int(m)*100 + d
}

// dateKeys are a date's day, ISO week and month keys ("2026-11-30",
// "2026-W49", "2026-11"). They depend on the date alone, so they are
// formatted once per process.
func dateKeys(date int) [3]string {
	if k, ok := dateKeyCache.Load(date); ok {
		return k.([3]string)
	}
	t := time.Date(date/10000, time.Month(date/100%100), date%100, 12, 0, 0, 0, time.UTC)
	wy, w := t.ISOWeek()
	k := [3]string{t.Format("2006-01-02"), fmt.Sprintf("%04d-W%02d", wy, w), t.Format("2006-01")}
	dateKeyCache.Store(date, k)
	return k
}

var dateKeyCache sync.Map // date int -> [3]string

func groupValue(key string, s *Session, date *[3]string, model string) string {
	switch key {
	case "day":
		return date[0]
	case "week":
		return date[1]
	case "month":
		return date[2]
	case "session":
		return s.ID
	case "model":
		if model == "" {
			return "(unknown)"
		}
		return model
	case "repo":
		return s.Repo
	case "agent":
		return s.Agent
	case "machine":
		return s.Machine
	}
	return ""
}
