package logs

import (
	"context"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// SecretMatch is one credential a detector found in a text.
type SecretMatch struct {
	Rule   string
	Secret string
}

// SecretQuery scans sessions for credentials with the redactor's detector.
type SecretQuery struct {
	Sessions []*Session
	Range    TimeRange
	// FindLine finds the credentials in one raw transcript line: a line of
	// JSON, read as text with its string escapes decoded, so that a secret
	// split by \n inside a string (a PEM block) is found whole. The line is
	// the reader's buffer: FindLine must not keep it.
	FindLine func(line []byte) []SecretMatch
	// Find finds the credentials in a plain text (a spilled tool output).
	Find func(text string) []SecretMatch
}

// SecretFinding is one distinct secret on one line of one file. Secret is the
// plaintext and must never leave the process: callers mask and fingerprint it.
type SecretFinding struct {
	Rule    string
	File    string // relative to its log root, '/'-separated
	Line    int    // 1-based physical line
	Session *Session
	Time    int64
	Secret  string
}

// SecretScan is the result of a scan.
type SecretScan struct {
	Findings     []SecretFinding // ordered by file, then line
	FilesScanned int
	BytesScanned int64
}

// blobType is the line kind that repeats other lines' request text.
const blobType = "api-request-blob"

// ScanSecrets reads every transcript line of the sessions (main and subagent
// files) and their spilled tool results. Lines of type api-request-blob repeat
// other lines' text and are skipped so a secret is not reported twice.
func (snap *Snapshot) ScanSecrets(ctx context.Context, q SecretQuery) (SecretScan, error) {
	type job struct {
		s    *Session
		f    *FileSummary // the transcript, or the one whose spilled output this is
		path string
		txt  bool
	}
	var jobs []job
	for _, s := range q.Sessions {
		if !q.Range.Overlaps(s.Start, s.End) {
			continue
		}
		files := s.Files()
		for _, f := range files {
			jobs = append(jobs, job{s: s, f: f, path: f.Path})
		}
		if len(files) == 0 {
			continue
		}
		f := files[0]
		dir := f.agent.SpillDir(&f.File)
		if dir == "" {
			continue
		}
		if entries, err := f.Root.ReadDir(dir); err == nil {
			for _, e := range entries {
				if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".txt") {
					jobs = append(jobs, job{s: s, f: f, path: filepath.Join(dir, e.Name()), txt: true})
				}
			}
		}
	}
	var (
		mu      sync.Mutex
		res     SecretScan
		scanned atomic.Int64
		files   atomic.Int64
	)
	parallel(ctx, len(jobs), func(i int) {
		j := jobs[i]
		found := scanSecretFile(ctx, j.s, j.f, j.path, j.txt, q, &scanned)
		files.Add(1)
		if len(found) > 0 {
			mu.Lock()
			res.Findings = append(res.Findings, found...)
			mu.Unlock()
		}
	})
	if err := ctx.Err(); err != nil {
		return SecretScan{}, err
	}
	sort.Slice(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i], res.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
	res.FilesScanned, res.BytesScanned = int(files.Load()), scanned.Load()
	return res, nil
}

func scanSecretFile(ctx context.Context, s *Session, f *FileSummary, path string, txt bool, q SecretQuery, scanned *atomic.Int64) []SecretFinding {
	fh, err := f.Root.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	var mtime int64
	if st, err := fh.Stat(); err == nil {
		mtime = st.ModTime().UnixMilli()
	}
	rel := relPath(f.Root.Path, path)
	var out []SecretFinding
	if txt {
		// A spilled output is plain text: scan it whole, so a PEM block over
		// several lines is one finding, located at the line where it starts.
		b, err := io.ReadAll(io.LimitReader(fh, 64<<20))
		if err != nil || !q.Range.Contains(mtime) {
			return nil
		}
		scanned.Add(int64(len(b)))
		text := string(b)
		seen := map[string]bool{}
		for _, m := range q.Find(text) {
			if seen[m.Secret] {
				continue
			}
			seen[m.Secret] = true
			line := 1 + strings.Count(text[:max(0, strings.Index(text, m.Secret))], "\n")
			out = append(out, SecretFinding{Rule: m.Rule, File: rel, Line: line, Session: s, Time: mtime, Secret: m.Secret})
		}
		return out
	}
	er := f.agent.NewReader(ctx, fh, 0, 0)
	defer er.Close()
	for er.Scan() {
		line := er.Lines().Bytes()
		scanned.Add(int64(len(line)) + 1)
		matches := q.FindLine(line)
		if len(matches) == 0 {
			continue
		}
		// Only a line with a finding is decoded, for its time and kind.
		ts := mtime
		if e, ok := er.Entry(0); ok {
			if e.Type == blobType {
				continue // repeats other lines' text
			}
			if e.Time != 0 {
				ts = e.Time
			}
		}
		if !q.Range.Contains(ts) {
			continue
		}
		seen := map[string]bool{}
		for _, m := range matches {
			if seen[m.Secret] {
				continue
			}
			seen[m.Secret] = true
			out = append(out, SecretFinding{Rule: m.Rule, File: rel, Line: er.Lines().Number(), Session: s, Time: ts, Secret: m.Secret})
		}
	}
	return out
}
