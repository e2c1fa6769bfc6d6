package tools

import (
	"context"
	"io"
	"strconv"

	"github.com/agent-activity/agent-activity/logs"
	"github.com/agent-activity/agent-activity/redact"
)

// ScanSecretsArgs are the arguments of scan_secrets.
type ScanSecretsArgs struct {
	SessionFilterArg
	RepoArg
	AgentArg
	SinceArg
	MachineArg
	MaxFindings *int `json:"max_findings,omitempty" jsonschema:"how many findings to list, 1..1000 (default 200); the summary counts all"`
	CursorArg
}

// SecretFindingOut is one leaked credential, never shown in plaintext.
type SecretFindingOut struct {
	Rule        string `json:"rule"`
	File        string `json:"file" jsonschema:"path relative to the log root"`
	Line        int    `json:"line"`
	SessionID   string `json:"session_id"`
	Timestamp   string `json:"timestamp,omitempty"`
	Fingerprint string `json:"fingerprint" jsonschema:"first 16 hex characters of the SHA-256 of the secret: compare findings without seeing them"`
	Masked      string `json:"masked,omitempty" jsonschema:"first 6 characters, ********, last 4; absent for secrets under 20 characters"`
}

// SecretSummary counts everything found, before the cut.
type SecretSummary struct {
	FilesScanned int            `json:"files_scanned"`
	BytesScanned int64          `json:"bytes_scanned"`
	Findings     int            `json:"findings"`
	ByRule       map[string]int `json:"by_rule"`
	Truncated    bool           `json:"truncated" jsonschema:"true when more findings exist than are listed: next_cursor continues"`
}

// ScanSecretsOut is the answer of scan_secrets.
type ScanSecretsOut struct {
	Summary      SecretSummary      `json:"summary"`
	Findings     []SecretFindingOut `json:"findings" jsonschema:"newest first"`
	NextCursor   string             `json:"next_cursor,omitempty"`
	Guidance     map[string]string  `json:"guidance" jsonschema:"rule -> how to rotate a credential of that kind, for the rules of the findings listed"`
	CoverageFrom string             `json:"coverage_from"`

	page pager
}

func (o *ScanSecretsOut) cutLen() int { return len(o.Findings) }
func (o *ScanSecretsOut) keep(n int) {
	o.Findings, o.Summary.Truncated, o.NextCursor = firstN(o.Findings, n), true, o.page.after(n)
	o.Guidance = guidance(o.Findings)
}

// guidance is the rotation advice for the rules of the findings.
func guidance(fs []SecretFindingOut) map[string]string {
	out := map[string]string{}
	for _, f := range fs {
		out[f.Rule] = redact.Guidance(f.Rule)
	}
	return out
}

// findingPos orders findings newest first.
func findingPos(f *logs.SecretFinding) pos {
	return pos{N: []int64{-f.Time, hash63(f.File, strconv.Itoa(f.Line), f.Rule, redact.Fingerprint(f.Secret))}}
}

// ScanSecrets is the scan_secrets tool.
func ScanSecrets(d Deps) Spec {
	return define("scan_secrets", "Scan history for leaked secrets",
		"Scans transcripts, subagent files and spilled tool outputs for leaked credentials (provider API keys, "+
			"tokens, private keys, credential URLs, secret assignments). Each finding, newest first, gives the "+
			"rule, file, line, session, time, a fingerprint and at most a masked preview — never the secret — plus "+
			"rotation guidance per rule; next_cursor pages through the rest. One finding per distinct secret per line.",
		[]bound{intBound[ScanSecretsArgs]("max_findings", 1, 1000, 200, func(a *ScanSecretsArgs) **int { return &a.MaxFindings })},
		func(ctx context.Context, a ScanSecretsArgs) (ScanSecretsOut, error) {
			if err := logs.CheckAgent(a.Agent); err != nil {
				return ScanSecretsOut{}, err
			}
			var (
				read     *logs.ReadSecrets
				snap     *logs.Snapshot
				sessions []*logs.Session
				tr       logs.TimeRange
				err      error
			)
			if a.Session == "" && a.Repo == "" && a.Agent == "" && a.Machine == "" {
				// Unfiltered: on a cold store, scan the lines while reading
				// the files for their summaries, so each file is read once.
				// A bad since is an error before any file is read. The
				// snapshot of that look is every session's, as it is for a
				// warm store: no second look.
				cfg := d.Store.Config()
				if _, err = logs.ParseTimeRange(a.Since, "", cfg.Now(), cfg.Location); err != nil {
					return ScanSecretsOut{}, err
				}
				if snap, read, err = d.Store.ScanSecretsWhileReading(ctx, progressFrom(ctx), findLineSecrets); err != nil {
					return ScanSecretsOut{}, err
				}
				// The range as scope would give it, from the time the read ended.
				if tr, err = rangeAt(snap, a.Since, ""); err != nil {
					return ScanSecretsOut{}, err
				}
				sessions = snap.Sessions
			} else {
				if snap, sessions, tr, err = d.scope(ctx, a.Session, a.Repo, a.Since, ""); err != nil {
					return ScanSecretsOut{}, err
				}
				sessions = a.filter(sessions)
			}
			scan, err := snap.ScanSecrets(ctx, logs.SecretQuery{Sessions: sessions, Range: tr, FindLine: findLineSecrets, FindText: findTextSecrets,
				MayLine: redact.MayHoldJSON, Reach: redact.JSONReach, Read: read})
			if err != nil {
				return ScanSecretsOut{}, err
			}
			found, pager, more := page(scan.Findings, findingPos, &a.CursorArg, *a.MaxFindings)
			out := ScanSecretsOut{Findings: []SecretFindingOut{}, CoverageFrom: rfcTime(snap.CoverageFrom()), page: pager,
				Summary: SecretSummary{FilesScanned: scan.FilesScanned, BytesScanned: scan.BytesScanned, Findings: len(scan.Findings),
					ByRule: map[string]int{}}}
			for _, f := range scan.Findings {
				out.Summary.ByRule[f.Rule]++
			}
			for _, f := range found {
				out.Findings = append(out.Findings, SecretFindingOut{Rule: f.Rule, File: clip(f.File), Line: f.Line, SessionID: f.Session.ID,
					Timestamp: rfc(f.Time), Fingerprint: redact.Fingerprint(f.Secret), Masked: redact.Mask(f.Secret)})
			}
			out.Guidance = guidance(out.Findings)
			if more {
				out.Summary.Truncated, out.NextCursor = true, pager.after(len(found))
			}
			return out, nil
		}).withHints("scan secrets leaked credentials api keys tokens passwords security audit rotate", false)
}

// findTextSecrets finds the secrets of a spilled output as it streams.
func findTextSecrets(r io.Reader, visit func(logs.SecretMatch)) error {
	return redact.FindReader(r, func(f redact.Finding) { visit(logs.SecretMatch{Rule: f.Rule, Secret: f.Secret}) })
}

// findLineSecrets finds the secrets of a raw transcript line; the Secrets
// FindJSON returns are copies, so the line's buffer can be reused.
func findLineSecrets(line []byte) []logs.SecretMatch { return secretMatches(redact.FindJSON(line)) }

func secretMatches(fs []redact.Finding) []logs.SecretMatch {
	if len(fs) == 0 {
		return nil
	}
	out := make([]logs.SecretMatch, len(fs))
	for i, f := range fs {
		out[i] = logs.SecretMatch{Rule: f.Rule, Secret: f.Secret}
	}
	return out
}
