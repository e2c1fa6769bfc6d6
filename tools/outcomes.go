package tools

import (
	"github.com/agent-activity/agent-activity/logs"
)

// OutcomeEvidence is one outcome of a session with the call or line that
// decided it.
type OutcomeEvidence struct {
	Kind      string `json:"kind" jsonschema:"files_changed, commit_observed, pushed, pr_opened, tests_passed, tests_failed, build_passed, build_failed or ended_on_error"`
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id,omitempty" jsonschema:"the deciding call; absent when a line decided (a pr-link line, an API error reply)"`
	Timestamp string `json:"timestamp,omitempty"`
	Source    string `json:"source,omitempty" jsonschema:"main or sidechain (a subagent's call), for a deciding call"`
	Excerpt   string `json:"excerpt" jsonschema:"what shows it: the file, the commit message, the command (with its error when it failed), the PR address, the API error"`
}

// RecoveryItem is a failing call fixed later by an ok call of the same tool
// on the same target.
type RecoveryItem struct {
	FailedToolUseID    string `json:"failed_tool_use_id"`
	RecoveredToolUseID string `json:"recovered_tool_use_id"`
	ToolName           string `json:"tool_name"`
	Steps              int    `json:"steps" jsonschema:"calls in between"`
}

const maxEvidence = 300

// outcomeEvidence renders a recap's outcomes with their excerpts.
func outcomeEvidence(s *logs.Session, r *logs.Recap) []OutcomeEvidence {
	out := []OutcomeEvidence{}
	for _, o := range r.Outcomes {
		ev := OutcomeEvidence{Kind: string(o.Kind), SessionID: s.ID, Timestamp: rfc(o.Time)}
		if o.Call == nil {
			switch o.Kind {
			case logs.OutcomePROpened:
				ev.Excerpt, ev.Timestamp = text(o.PRURL, maxEvidence), rfc(r.PRLinkTime)
			case logs.OutcomeEndedOnError:
				ev.Excerpt = text(r.APIErrorText, maxEvidence)
			}
			out = append(out, ev)
			continue
		}
		ev.Source = source(o.Call.Sidechain)
		var d logs.CallDetail
		if dt := r.Details[o.Call.Key]; dt != nil {
			d = *dt
		}
		ev.ToolUseID = d.ID
		excerpt := d.Command
		switch o.Kind {
		case logs.OutcomeFilesChanged:
			excerpt = o.Call.Path()
		case logs.OutcomeCommitObserved:
			if msg, ok := logs.CommitMessage(d.Command); ok {
				excerpt = msg
			}
		case logs.OutcomePROpened:
			if url := logs.FindPRURL(d.ResultText); url != "" {
				excerpt = url
			}
		case logs.OutcomeTestsFailed, logs.OutcomeBuildFailed:
			excerpt = d.Command + "\n" + d.ResultText
		case logs.OutcomeEndedOnError:
			excerpt = o.Call.Name() + ": " + d.ResultText
		}
		ev.Excerpt = text(excerpt, maxEvidence)
		out = append(out, ev)
	}
	return out
}

// recoveryItems renders a recap's recoveries.
func recoveryItems(r *logs.Recap) []RecoveryItem {
	out := []RecoveryItem{}
	id := func(c logs.Call) string {
		if d := r.Details[c.Key]; d != nil {
			return d.ID
		}
		return ""
	}
	for _, rc := range r.Recoveries {
		out = append(out, RecoveryItem{FailedToolUseID: id(rc.Failed), RecoveredToolUseID: id(rc.Recovered),
			ToolName: name(rc.Failed.Name()), Steps: rc.Steps})
	}
	return out
}
