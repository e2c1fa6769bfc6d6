package logs

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agent-activity/agent-activity/transcript"
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
	// MayLine, when not nil, is FindLine's pre-check over pieces of a line
	// (transcript.Lines.SkipLong, with Reach bytes on either side of each
	// seam): false for every piece and seam of a long line means FindLine
	// finds nothing there, and the line is passed over without being held.
	MayLine func(b []byte) bool
	Reach   int
	// Read, when not nil, holds the scan of the transcript lines made while
	// the snapshot was read, by the same FindLine: a file it holds is not
	// read again.
	Read *ReadSecrets
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
	// The sessions whose folder of spilled outputs is listed, each with its
	// first file, which names the folder.
	type owner struct {
		s *Session
		f *FileSummary
	}
	var listed []owner
	for _, s := range q.Sessions {
		if !q.Range.Overlaps(s.Start, s.End) {
			continue
		}
		files := s.Files()
		for _, f := range files {
			jobs = append(jobs, job{s: s, f: f, path: f.Path, size: f.Size})
		}
		if len(files) > 0 {
			listed = append(listed, owner{s, files[0]})
		}
	}
	// The folders are listed side by side: most are not there, and each
	// look is a few system calls, thousands in a history.
	spills := make([][]job, len(listed))
	parallel(ctx, len(listed), func(i int) {
		s, f := listed[i].s, listed[i].f
		dir := f.agent.SpillDir(&f.File)
		if dir == "" {
			return
		}
		entries, err := f.Root.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".txt") {
				var size int64
				if info, err := e.Info(); err == nil {
					size = info.Size()
				}
				spills[i] = append(spills[i], job{s: s, f: f, path: filepath.Join(dir, e.Name()), txt: true, size: size})
			}
		}
	})
	for _, js := range spills {
		jobs = append(jobs, js...)
	}
	// Largest first, so that no big file is left to one worker at the end.
	slices.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(b.size, a.size) })
	var (
		mu      sync.Mutex
		res     SecretScan
		scanned atomic.Int64
		files   atomic.Int64
	)
	parallel(ctx, len(jobs), func(i int) {
		j := jobs[i]
		var found []SecretFinding
		if fs, ok := q.Read.file(j.f); ok && !j.txt {
			found = fs.inRange(j.s, j.f, q.Range)
			scanned.Add(fs.bytes)
		} else {
			found = scanSecretFile(ctx, j.s, j.f, j.path, j.txt, q, &scanned)
		}
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
	if q.MayLine != nil {
		er.Lines().SkipLong(q.Reach, q.MayLine, func(n int) { scanned.Add(int64(n) + 1) })
	}
	for er.Scan() {
		scanned.Add(int64(len(er.Lines().Bytes())) + 1)
		out = appendLineSecrets(out, er, q.FindLine, rel, mtime, q.Range)
	}
	for i := range out {
		out[i].Session = s
	}
	return out
}

// appendLineSecrets appends the distinct secrets of er's current line found
// in rng: at the line's time, or at mtime for a line without one. A line of
// a kind that repeats other lines' text has none.
func appendLineSecrets(out []SecretFinding, er transcript.EntryReader, find func([]byte) []SecretMatch, rel string, mtime int64, rng TimeRange) []SecretFinding {
	matches := find(er.Lines().Bytes())
	if len(matches) == 0 {
		return out
	}
	// Only a line with a finding is decoded, for its time and kind.
	ts := mtime
	if e, ok := er.Entry(0); ok {
		if e.Type == blobType {
			return out // repeats other lines' text
		}
		if e.Time != 0 {
			ts = e.Time
		}
	}
	if !rng.Contains(ts) {
		return out
	}
	seen := map[string]bool{}
	for _, m := range matches {
		if seen[m.Secret] {
			continue
		}
		seen[m.Secret] = true
		out = append(out, SecretFinding{Rule: m.Rule, File: rel, Line: er.Lines().Number(), Time: ts, Secret: m.Secret})
	}
	return out
}

// ReadSecrets is the secret scan of the transcript lines that the store's
// first look read (ScanSecretsWhileReading): for each file, what a scan of
// its own would find in any range and the bytes it would count. A query
// given it (SecretQuery.Read) takes a file's findings from it instead of
// reading the file again.
type ReadSecrets struct {
	files fileStates[fileSecrets]
}

type fileSecrets struct {
	findings []SecretFinding // without their session
	bytes    int64
}

// file is the scan of f, when the look read f whole without an error.
func (rs *ReadSecrets) file(f *FileSummary) (*fileSecrets, bool) {
	if rs == nil || f.ReadError != "" {
		return nil, false
	}
	return rs.files.get(f)
}

// ScanSecretsWhileReading returns the snapshot and, when this look had to
// read every file anyway (the store's first look), the secret scan of every
// transcript line done in that same pass, for ScanSecrets to take its
// findings from (SecretQuery.Read): each file is read once for both. On a
// warm store it returns nil and ScanSecrets reads the files.
func (s *Store) ScanSecretsWhileReading(ctx context.Context, progress Progress, find func([]byte) []SecretMatch) (*Snapshot, *ReadSecrets, error) {
	rs := &ReadSecrets{}
	all := TimeRange{}
	hook := func(f *FileSummary) func(transcript.EntryReader) {
		fs, mtime := rs.files.add(f), f.ModTime.UnixMilli()
		return func(er transcript.EntryReader) {
			fs.bytes += int64(len(er.Lines().Bytes())) + 1
			fs.findings = appendLineSecrets(fs.findings, er, find, "", mtime, all)
		}
	}
	snap, combined, err := s.snapshot(ctx, progress, hook)
	if err != nil || !combined {
		return snap, nil, err
	}
	return snap, rs, nil
}

// inRange is the findings of f, the file of this scan, in rng, of session
// s, placed in f.
func (fs *fileSecrets) inRange(s *Session, f *FileSummary, rng TimeRange) []SecretFinding {
	if len(fs.findings) == 0 {
		return nil
	}
	var out []SecretFinding
	rel := relPath(f.Root.Path, f.Path)
	for _, x := range fs.findings {
		if rng.Contains(x.Time) {
			x.Session, x.File = s, rel
			out = append(out, x)
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
