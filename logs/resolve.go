package logs

import (
	"fmt"
	"sort"
	"strings"
)

// ResolveOptions steer how a session argument is resolved.
type ResolveOptions struct {
	IncludeCurrent bool   // "latest" may be the caller's own session
	Cwd            string // scope for finding the current session
}

// ValidSessionArg reports whether v has the form of a session argument: a
// UUID, a hex/dash prefix of at least 4 characters, or "latest". Anything else
// never reaches the filesystem.
func ValidSessionArg(v string) bool {
	if v == "latest" {
		return true
	}
	if len(v) < 4 || len(v) > 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			return false
		}
	}
	return true
}

// CheckSessionArg returns invalid_argument when v is not of a session form.
func CheckSessionArg(v string) error {
	if !ValidSessionArg(strings.TrimSpace(v)) {
		return InvalidArgument("session", "session must be a session UUID, a unique prefix of at least 4 hex characters, or \"latest\"; got %q", clipArg(v))
	}
	return nil
}

// Resolve finds the session an argument names.
func (snap *Snapshot) Resolve(arg string, opt ResolveOptions) (*Session, error) {
	if err := CheckSessionArg(arg); err != nil {
		return nil, err
	}
	arg = strings.TrimSpace(arg)
	if arg == "latest" {
		cur := snap.Current(opt.Cwd)
		for _, s := range snap.Sessions { // most recently active first
			if s.Main == nil && len(s.Subagents) == 0 {
				continue
			}
			if !opt.IncludeCurrent && cur != nil && s == cur {
				continue
			}
			return s, nil
		}
		return nil, &Error{Code: CodeSessionNotFound, Message: "no session found for \"latest\"" + snap.rootHint()}
	}
	arg = strings.ToLower(arg)
	var matches []*Session
	for _, s := range snap.Sessions {
		if strings.HasPrefix(strings.ToLower(s.ID), arg) {
			matches = append(matches, s)
		}
	}
	switch len(matches) {
	case 0:
		return nil, &Error{Code: CodeSessionNotFound, Message: fmt.Sprintf("no session id starts with %q%s; call list_recent_sessions to see ids", arg, snap.rootHint())}
	case 1:
		return matches[0], nil
	}
	sort.SliceStable(matches, func(i, j int) bool { return matches[i].End > matches[j].End })
	if len(matches) > 20 {
		matches = matches[:20]
	}
	if onMachines := sameIDMachines(matches); onMachines != "" {
		return nil, &Error{Code: CodeAmbiguousSession, Candidates: matches,
			Message: fmt.Sprintf("session %s is on several machines (%s); pass machine to choose one", matches[0].ID, onMachines)}
	}
	return nil, &Error{Code: CodeAmbiguousSession, Candidates: matches,
		Message: fmt.Sprintf("%q matches several sessions; pass more characters of one of the candidates", arg)}
}

func (snap *Snapshot) rootHint() string {
	if snap.RootsMissing() {
		return " (the log root does not exist)"
	}
	return ""
}

// Current returns the caller's own session: the configured caller session id
// when set, else the newest live session (scoped to cwd when given), else nil.
func (snap *Snapshot) Current(cwd string) *Session {
	if id := snap.cfg.CallerSessionID; id != "" {
		for _, s := range snap.Sessions {
			if strings.EqualFold(s.ID, id) {
				return s
			}
		}
		return nil
	}
	now := snap.cfg.Now()
	var best *Session
	for _, s := range snap.Sessions {
		if !s.IsLive(now, snap.cfg.LiveWindow) {
			continue
		}
		if cwd != "" && !sameCwd(s, cwd) {
			continue
		}
		if best == nil || s.ModTime().After(best.ModTime()) {
			best = s
		}
	}
	return best
}

func sameCwd(s *Session, cwd string) bool {
	clean := strings.TrimRight(cwd, `/\`)
	return strings.EqualFold(strings.TrimRight(s.Cwd, `/\`), clean) || s.Project == EncodeProject(clean)
}

// EncodeProject is Claude Code's folder name for a cwd: every character that
// is not [A-Za-z0-9] becomes '-'.
func EncodeProject(cwd string) string {
	b := []byte(cwd)
	out := make([]byte, 0, len(b))
	for _, r := range cwd {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			out = append(out, byte(r))
		} else {
			out = append(out, '-')
		}
	}
	return string(out)
}

// clipArg quotes a caller's value in a message. It is not cut here: the tools
// layer redacts the whole message and then bounds it, so a secret passed as an
// argument is never left half visible.
func clipArg(s string) string {
	return strings.ToValidUTF8(s, "?")
}
