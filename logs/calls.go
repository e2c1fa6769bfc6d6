package logs

import (
	"context"
	"sort"
	"strings"

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

// CountCalls counts the tool calls the session owns, each once.
func CountCalls(s *Session, live bool) CallStats {
	st := CallStats{PerTool: map[string]*OutcomeCounts{}}
	for _, c := range s.Calls() {
		o := c.Outcome(live)
		st.Total.Add(o)
		if c.Sidechain {
			st.Sidechain.Add(o)
		} else {
			st.Main.Add(o)
		}
		pt := st.PerTool[c.Name()]
		if pt == nil {
			pt = &OutcomeCounts{}
			st.PerTool[c.Name()] = pt
		}
		pt.Add(o)
	}
	return st
}

// FailingCalls returns the newest max calls of s that ended in error or were
// rejected, oldest first, and how many there are in all.
func FailingCalls(s *Session, live bool, max int) ([]Call, int) {
	var out []Call
	for _, c := range s.Calls() {
		if o := c.Outcome(live); o == OutcomeError || o == OutcomeRejected {
			out = append(out, *c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	total := len(out)
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out, total
}
