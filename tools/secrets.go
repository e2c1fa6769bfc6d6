package tools

import (
	"context"
	"sort"

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
}

// SecretFindingOut is one leaked credential, never shown in plaintext.
type SecretFindingOut struct {
	Rule        string `json:"rule"`
	File        string `json:"file" jsonschema:"path relative to the log root"`
	Line        int    `json:"line"`
	SessionID   string `json:"session_id"`
	Timestamp   string `json:"timestamp"`
	Fingerprint string `json:"fingerprint" jsonschema:"first 16 hex characters of the SHA-256 of the secret: compare findings without seeing them"`
	Masked      string `json:"masked" jsonschema:"first 6 characters, ********, last 4; empty for secrets under 20 characters"`
}

// SecretSummary counts everything found, before the cut.
type SecretSummary struct {
	FilesScanned int            `json:"files_scanned"`
	BytesScanned int64          `json:"bytes_scanned"`
	Findings     int            `json:"findings"`
	ByRule       map[string]int `json:"by_rule"`
	Truncated    bool           `json:"truncated"`
}

// ScanSecretsOut is the answer of scan_secrets.
type ScanSecretsOut struct {
	Summary      SecretSummary      `json:"summary"`
	Findings     []SecretFindingOut `json:"findings"`
	Guidance     map[string]string  `json:"guidance" jsonschema:"rule -> how to rotate a credential of that kind"`
	CoverageFrom string             `json:"coverage_from"`
}

// ScanSecrets is the scan_secrets tool.
func ScanSecrets(d Deps) Spec {
	return define("scan_secrets", "Scan history for leaked secrets",
		"Scans transcripts, subagent files and spilled tool outputs for leaked credentials (provider API keys, "+
			"tokens, private keys, credential URLs, secret assignments). Each finding gives the rule, file, line, "+
			"session, time, a fingerprint and at most a masked preview — never the secret — plus rotation guidance "+
			"per rule. One finding per distinct secret per line.",
		[]bound{intBound[ScanSecretsArgs]("max_findings", 1, 1000, 200, func(a *ScanSecretsArgs) **int { return &a.MaxFindings })},
		func(ctx context.Context, a ScanSecretsArgs) (ScanSecretsOut, error) {
			if err := logs.CheckAgent(a.Agent); err != nil {
				return ScanSecretsOut{}, err
			}
			snap, sessions, tr, err := d.scope(ctx, a.Session, a.Repo, a.Since, "")
			if err != nil {
				return ScanSecretsOut{}, err
			}
			sessions = a.filter(sessions)
			scan, err := snap.ScanSecrets(ctx, logs.SecretQuery{Sessions: sessions, Range: tr, Find: findSecrets})
			if err != nil {
				return ScanSecretsOut{}, err
			}
			max := *a.MaxFindings
			out := ScanSecretsOut{Findings: []SecretFindingOut{}, Guidance: map[string]string{}, CoverageFrom: rfcTime(snap.CoverageFrom()),
				Summary: SecretSummary{FilesScanned: scan.FilesScanned, BytesScanned: scan.BytesScanned, Findings: len(scan.Findings),
					ByRule: map[string]int{}, Truncated: len(scan.Findings) > max}}
			// Newest first, so a cut keeps the most recent leaks.
			sort.SliceStable(scan.Findings, func(i, j int) bool { return scan.Findings[i].Time > scan.Findings[j].Time })
			for i, f := range scan.Findings {
				out.Summary.ByRule[f.Rule]++
				out.Guidance[f.Rule] = redact.Guidance(f.Rule)
				if i < max {
					out.Findings = append(out.Findings, SecretFindingOut{Rule: f.Rule, File: f.File, Line: f.Line, SessionID: f.Session.ID,
						Timestamp: rfc(f.Time), Fingerprint: redact.Fingerprint(f.Secret), Masked: redact.Mask(f.Secret)})
				}
			}
			return out, nil
		})
}

func findSecrets(text string) []logs.SecretMatch {
	fs := redact.Find(text)
	out := make([]logs.SecretMatch, len(fs))
	for i, f := range fs {
		out[i] = logs.SecretMatch{Rule: f.Rule, Secret: f.Secret}
	}
	return out
}
