package logs

import (
	"bytes"
	"context"
	"io"
	"os"
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
	// the reader's buffer: FindLine must not keep it, and the Secrets it
	// returns must not share its memory.
	FindLine func(line []byte) []SecretMatch
	// FindText reports, in order, the credentials of a plain text read from
	// r (a spilled tool output), and returns r's first error.
	FindText func(r io.Reader, visit func(SecretMatch)) error
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
		size int64
	}
	var jobs []job
	for _, s := range q.Sessions {
		if !q.Range.Overlaps(s.Start, s.End) {
			continue
		}
		files := s.Files()
		for _, f := range files {
			jobs = append(jobs, job{s: s, f: f, path: f.Path, size: f.Size})
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
					var size int64
					if info, err := e.Info(); err == nil {
						size = info.Size()
					}
					jobs = append(jobs, job{s: s, f: f, path: filepath.Join(dir, e.Name()), txt: true, size: size})
				}
			}
		}
	}
	// Largest first, so that no big file is left to one worker at the end.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].size > jobs[j].size })
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
	if txt {
		if !q.Range.Contains(mtime) {
			return nil
		}
		return scanSpill(fh, q.FindText, func(m SecretMatch, line int) SecretFinding {
			return SecretFinding{Rule: m.Rule, File: rel, Line: line, Session: s, Time: mtime, Secret: m.Secret}
		}, scanned)
	}
	var out []SecretFinding
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

// maxSpill is how much of a spilled output is scanned.
const maxSpill = 64 << 20

// scanSpill scans a spilled output, plain text, as one stream, so a PEM
// block over several lines is one finding. Each distinct secret is
// reported once, at the line where its text first occurs in the output. A
// read error drops the file's findings and bytes. The stream is read again
// only when it holds a secret, to place them.
func scanSpill(fh *os.File, find func(io.Reader, func(SecretMatch)) error, finding func(SecretMatch, int) SecretFinding, scanned *atomic.Int64) []SecretFinding {
	cr := &countingReader{r: io.LimitReader(fh, maxSpill)}
	var found []SecretMatch
	seen := map[string]bool{}
	err := find(cr, func(m SecretMatch) {
		if !seen[m.Secret] {
			seen[m.Secret] = true
			found = append(found, m)
		}
	})
	if err != nil {
		return nil
	}
	scanned.Add(cr.n)
	if len(found) == 0 {
		return nil
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	secrets := make([]string, len(found))
	for i, m := range found {
		secrets[i] = m.Secret
	}
	lines, err := firstLines(io.LimitReader(fh, maxSpill), secrets)
	if err != nil {
		return nil
	}
	out := make([]SecretFinding, len(found))
	for i, m := range found {
		out[i] = finding(m, lines[i])
	}
	return out
}

// firstLines returns, for each of secrets, the 1-based line of r on which
// its first occurrence starts, or 1 when it does not occur.
func firstLines(r io.Reader, secrets []string) ([]int, error) {
	lines := make([]int, len(secrets))
	longest, left := 0, len(secrets)
	for _, sec := range secrets {
		longest = max(longest, len(sec))
	}
	// window is the last longest-1 bytes already searched, then a new
	// piece: an occurrence that starts in the former ends in the latter.
	var window []byte
	newlines := 0 // before window[0]
	piece := make([]byte, 1<<20)
	for left > 0 {
		n, err := r.Read(piece)
		window = append(window, piece[:n]...)
		for i, sec := range secrets {
			if lines[i] == 0 {
				if at := bytes.Index(window, []byte(sec)); at >= 0 {
					lines[i] = 1 + newlines + bytes.Count(window[:at], []byte{'\n'})
					left--
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if cut := len(window) - (longest - 1); cut > 0 {
			newlines += bytes.Count(window[:cut], []byte{'\n'})
			window = window[:copy(window, window[cut:])]
		}
	}
	for i := range lines {
		if lines[i] == 0 {
			lines[i] = 1
		}
	}
	return lines, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
