package logs

import (
	"context"
	"io"
	"sort"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// RecentResult is the answer to "the most recently active sessions" on a cold
// store: the sessions, most recently active first, and how many sessions
// match in all.
type RecentResult struct {
	Snapshot *Snapshot // a partial snapshot holding the sessions that were read
	Sessions []*Session
	Total    int
}

// Recent answers "the limit most recently active sessions (matching repo)"
// without reading the whole history, when the store is cold. It reads
// sessions newest file first and stops once no unread session can change the
// answer:
//
//   - order: a session's last line is no newer than its newest file's mtime, so
//     an unread session whose mtime is older than the last listed session's
//     end cannot be more recent;
//   - counting: a message counts in the session where it first appeared, and
//     a copy of a message can only be in a file written after the message
//     was, so an unread session whose mtime is older than the earliest start
//     of the listed sessions holds none of their messages.
//
// ok is false when the store is already warm (the caller uses the snapshot) or
// when a file's lines are newer than its mtime (a clock skew or a bulk touch
// breaks the first rule; the caller then reads everything). What was read is
// kept, so the full scan that follows does not read it again.
func (s *Store) Recent(ctx context.Context, limit int, repo string) (RecentResult, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.snap != nil {
		return RecentResult{}, false, nil
	}
	found, roots := discover(s.dirs, s.cfg, s.found)
	s.found = found
	type candidate struct {
		key   string
		files []discovered
		mtime int64
	}
	byKey := map[string]*candidate{}
	var cands []*candidate
	for _, d := range found {
		sid := d.SessionID
		if d.Kind == LegacyAgentFile {
			sid = headField(d, func(e *transcript.Entry) string { return e.SessionID })
			if sid == "" {
				sid = "agent-" + d.AgentID
			}
		}
		key := d.ProjectDir + "/" + sid
		c := byKey[key]
		if c == nil {
			c = &candidate{key: key}
			byKey[key] = c
			cands = append(cands, c)
		}
		c.files = append(c.files, d)
		if mt := d.Info.ModTime.UnixMilli(); mt > c.mtime {
			c.mtime = mt
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].mtime != cands[j].mtime {
			return cands[i].mtime > cands[j].mtime
		}
		return cands[i].key < cands[j].key
	})
	// Total matching sessions: the repo filter needs each session's cwd, read
	// from the head of its files when the session itself is not read.
	total := 0
	for _, c := range cands {
		if repo == "" || headMatchesRepo(c.files, repo) {
			total++
		}
	}
	read := map[string]*FileSummary{}
	for k, f := range s.files {
		read[k] = f
	}
	var res RecentResult
	next := 0
	for size := 4; ; size *= 2 { // batches double, so rebuilding the partial snapshot stays cheap
		// Read the next batch of sessions.
		var work []scanJob
		for n := 0; next < len(cands) && n < size; next, n = next+1, n+1 {
			for _, d := range cands[next].files {
				if read[d.Path] == nil {
					fs := newFileSummary(d)
					read[d.Path] = fs
					work = append(work, newScanJob(fs, d.Info))
				}
			}
		}
		if err := scanAll(ctx, work, nil, nil); err != nil {
			return RecentResult{}, false, err
		}
		for _, j := range work {
			s.files[j.f.Path] = j.f
		}
		snap, _ := buildSnapshot(s.cfg, read, roots)
		var listed []*Session
		minStart := int64(0)
		for _, ss := range snap.Sessions {
			if ss.End > ss.ModTime().UnixMilli()+1000 {
				return RecentResult{}, false, nil // lines newer than the file: mtimes cannot be trusted
			}
			if repo != "" && !MatchRepo(ss, repo) {
				continue
			}
			if len(listed) < limit {
				listed = append(listed, ss)
				if ss.Start != 0 && (minStart == 0 || ss.Start < minStart) {
					minStart = ss.Start
				}
			}
		}
		done := next >= len(cands)
		if !done && len(listed) == limit {
			nextMtime := cands[next].mtime
			last := listed[len(listed)-1]
			done = last.End > nextMtime && nextMtime < minStart
		}
		if done {
			res = RecentResult{Snapshot: snap, Sessions: listed, Total: total}
			return res, true, nil
		}
	}
}

// headField returns the first non-empty value pick finds among the entries
// in the first 64 KB of a file (a cheap look that does not read the file).
func headField(d discovered, pick func(e *transcript.Entry) string) string {
	fh, err := d.Root.Open(d.Path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	er := d.agent.NewReader(context.Background(), io.LimitReader(fh, 64<<10), 0, 0)
	defer er.Close()
	for er.Scan() {
		if e, ok := er.Entry(0); ok {
			if v := pick(e); v != "" {
				return strings.Clone(v)
			}
		}
	}
	return ""
}

// headMatchesRepo applies the repo filter to a session not yet read, from the
// first cwd in its files (or its folder name when none has one).
func headMatchesRepo(files []discovered, repo string) bool {
	cwdOf := func(e *transcript.Entry) string { return e.Cwd }
	cwd := ""
	for _, d := range files {
		if d.Kind == MainFile {
			cwd = headField(d, cwdOf)
		}
	}
	if cwd == "" && len(files) > 0 {
		cwd = headField(files[0], cwdOf)
	}
	s := &Session{Cwd: cwd, Repo: lastElem(cwd)}
	if cwd == "" && len(files) > 0 {
		s.Repo = decodeProjectName(files[0].Project)
	}
	return MatchRepo(s, repo)
}
