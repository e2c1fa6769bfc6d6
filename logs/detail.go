package logs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"

	"github.com/agent-activity/agent-activity/transcript"
)

// Outcome names of a tool call.
const (
	OutcomeOK         = "ok"
	OutcomeError      = "error"
	OutcomeRejected   = "rejected"
	OutcomePending    = "pending"
	OutcomeInProgress = "in_progress"
)

// Outcome is the outcome of a call; live says whether its session is live.
func (c Call) Outcome(live bool) string {
	switch c.Result {
	case transcript.ResultOK:
		return OutcomeOK
	case transcript.ResultError:
		return OutcomeError
	case transcript.ResultRejected:
		return OutcomeRejected
	}
	if live {
		return OutcomeInProgress
	}
	return OutcomePending
}

// OutcomeCounts counts calls by outcome; the five counts add up to Total.
type OutcomeCounts struct {
	OK, Error, Rejected, Pending, InProgress, Total int
}

// Add counts one outcome.
func (o *OutcomeCounts) Add(outcome string) {
	o.Total++
	switch outcome {
	case OutcomeOK:
		o.OK++
	case OutcomeError:
		o.Error++
	case OutcomeRejected:
		o.Rejected++
	case OutcomePending:
		o.Pending++
	case OutcomeInProgress:
		o.InProgress++
	}
}

// Entry is one line of a main transcript, reduced to what a reader needs.
// Text fields are raw (unredacted) and clipped; callers redact before output.
type Entry struct {
	UUID        string
	Type        string
	Time        int64
	Sidechain   bool
	Text        string
	ToolCalls   []EntryCall
	ToolResults []EntryResult
	Model       string
	Usage       *Usage // on the first line of an API response attributed to this session
}

// EntryCall is a tool_use block of an entry.
type EntryCall struct {
	ID, Name string
	Key      uint64 // IDKey(ID)
}

// EntryResult is a tool_result block of an entry.
type EntryResult struct {
	ToolUseID string
	IsError   bool
	Text      string // clipped result text, for errors only
}

// Tail returns the last limit entries of the session's main transcript, oldest
// first, and the number of entries in it.
func (snap *Snapshot) Tail(ctx context.Context, s *Session, limit int) ([]Entry, int, error) {
	if s.Main == nil {
		return nil, 0, nil
	}
	// The summary knows how many entries the file had: lines before the last
	// limit of them are only counted, not turned into entries. JSONL only
	// grows; if the file turns out shorter, it is read again without skipping.
	skip := s.Main.Entries - limit
	entries, total, err := snap.tail(ctx, s, limit, skip)
	if err == nil && skip > 0 && total < s.Main.Entries {
		entries, total, err = snap.tail(ctx, s, limit, 0)
	}
	return entries, total, unreadable(s, err)
}

func (snap *Snapshot) tail(ctx context.Context, s *Session, limit, skip int) ([]Entry, int, error) {
	owned := snap.ownedIDs(s)
	ring := make([]Entry, limit) // circular: the entry of line n is at n % limit
	total := 0
	seen := map[uint64]bool{}
	err := s.Main.eachEntry(ctx, transcript.WantText, func(l *transcript.Entry) bool {
		total++
		if total <= skip {
			if l.Response != nil && l.Response.ID != "" {
				seen[IDKey(l.Response.ID)] = true // usage shows on a response's first line only
			}
			return true
		}
		e := Entry{UUID: strings.Clone(l.UUID), Type: strings.Clone(l.Type), Time: l.Time, Sidechain: l.Sidechain}
		text := l.UserText
		if l.Response != nil {
			text = strings.TrimSpace(l.Text)
		}
		if l.Role != transcript.RoleOther {
			for _, c := range l.Calls {
				e.ToolCalls = append(e.ToolCalls, EntryCall{ID: strings.Clone(c.ID), Name: transcript.Clip(c.Name, 120), Key: IDKey(c.ID)})
			}
			for _, res := range l.Results {
				r := EntryResult{ToolUseID: strings.Clone(res.ToolUseID), IsError: res.State == transcript.ResultError || res.State == transcript.ResultRejected}
				if r.IsError {
					r.Text = transcript.Clip(res.Text, 1000)
				}
				e.ToolResults = append(e.ToolResults, r)
			}
			if text != "" {
				e.Text = transcript.Clip(text, 1000)
			}
			if r := l.Response; r != nil {
				e.Model = strings.Clone(r.Model)
				if id := r.ID; id != "" && !seen[IDKey(id)] {
					k := IDKey(id)
					seen[k] = true
					if u, ok := owned[k]; ok {
						uu := u
						e.Usage = &uu
					}
				}
			}
		} else if l.Summary != "" {
			e.Text = transcript.Clip(l.Summary, 1000)
		}
		ring[(total-1)%limit] = e
		return true
	})
	n := min(total, limit)
	out := make([]Entry, 0, n)
	for i := total - n; i < total; i++ {
		out = append(out, ring[i%limit])
	}
	return out, total, err
}

// unreadable turns an I/O error on a session's file into a readable error
// that names the session and the cause, never the file's content.
func unreadable(s *Session, err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err // the request ended: not a problem of the file
	}
	cause := "an I/O error"
	switch {
	case errors.Is(err, fs.ErrPermission):
		cause = "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		cause = "the file was removed"
	case errors.Is(err, syscall.EINVAL):
		cause = "it is not a regular file"
	}
	return &Error{Code: CodeInternal, Message: fmt.Sprintf("a transcript file of session %s cannot be read (%s); other sessions are unaffected", s.ID, cause)}
}

// ownedIDs maps the message ids whose usage is attributed to s's main thread
// to that usage.
func (snap *Snapshot) ownedIDs(s *Session) map[uint64]Usage {
	out := map[uint64]Usage{}
	if s.Main == nil {
		return out
	}
	ids := map[uint64]bool{}
	for i := range s.Main.Messages {
		if m := &s.Main.Messages[i]; m.Key != 0 && !m.Sidechain && m.Counts() {
			ids[m.Key] = true
		}
	}
	for _, r := range s.responses {
		if !r.Sidechain && r.key != 0 && ids[r.key] {
			out[r.key] = r.Usage
		}
	}
	return out
}

// CallDetail is the text around one tool call, raw and clipped.
type CallDetail struct {
	ID         string // the tool_use id
	Input      string // compact JSON of the input
	Command    string // Bash/PowerShell command
	ResultText string
}

// CallDetails re-reads the session's files for the calls with these keys.
func (snap *Snapshot) CallDetails(ctx context.Context, s *Session, ids map[uint64]bool) (map[uint64]*CallDetail, error) {
	out := map[uint64]*CallDetail{}
	for _, f := range s.Files() {
		err := f.eachEntryLazy(ctx, func(er transcript.EntryReader, l *transcript.Entry) bool {
			wanted := false
			for _, c := range l.Calls {
				wanted = wanted || ids[IDKey(c.ID)]
			}
			for _, r := range l.Results {
				wanted = wanted || ids[IDKey(r.ToolUseID)]
			}
			if !wanted {
				return true
			}
			l, _ = er.Entry(transcript.WantText | transcript.WantInputs)
			for _, c := range l.Calls {
				if ids[IDKey(c.ID)] {
					d := detailFor(out, c.ID)
					d.Input = transcript.Truncate(string(c.Input.Raw[:min(len(c.Input.Raw), 4000)]), 1000)
					if c.Input.Command != "" {
						d.Command = transcript.Clip(c.Input.Command, 1000)
					}
				}
			}
			for _, r := range l.Results {
				if ids[IDKey(r.ToolUseID)] {
					detailFor(out, r.ToolUseID).ResultText = transcript.Clip(r.Text, 1000)
				}
			}
			return true
		})
		if err != nil {
			return out, unreadable(s, err)
		}
	}
	return out, nil
}

func detailFor(m map[uint64]*CallDetail, id string) *CallDetail {
	k := IDKey(id)
	d := m[k]
	if d == nil {
		d = &CallDetail{ID: strings.Clone(id)}
		m[k] = d
	}
	return d
}

// CallStats counts a session's calls by outcome, per tool and per thread.
type CallStats struct {
	Total, Main, Sidechain OutcomeCounts
	PerTool                map[string]*OutcomeCounts
}

// CountCalls counts every tool call of a session's files.
func CountCalls(s *Session, live bool) CallStats {
	st := CallStats{PerTool: map[string]*OutcomeCounts{}}
	for _, f := range s.Files() {
		for _, c := range f.Calls {
			o := c.Outcome(live)
			st.Total.Add(o)
			if c.Sidechain {
				st.Sidechain.Add(o)
			} else {
				st.Main.Add(o)
			}
			pt := st.PerTool[c.Name]
			if pt == nil {
				pt = &OutcomeCounts{}
				st.PerTool[c.Name] = pt
			}
			pt.Add(o)
		}
	}
	return st
}

// FailingCalls returns the newest max calls of s that ended in error or were
// rejected, oldest first, and how many there are in all.
func FailingCalls(s *Session, live bool, max int) ([]Call, int) {
	var out []Call
	for _, f := range s.Files() {
		for _, c := range f.Calls {
			if o := c.Outcome(live); o == OutcomeError || o == OutcomeRejected {
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	total := len(out)
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out, total
}
