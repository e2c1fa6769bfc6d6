package logs

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// FileTouch is one tool call that read, edited or wrote a file: the call,
// and the file and action of this touch (a call that touches several files,
// a patch, is a touch of each).
type FileTouch struct {
	Session *Session
	Call    *Call
	Path    string
	Action  FileAction
}

// PathMatcher matches file paths: exact, by path-segment suffix, or by glob.
type PathMatcher struct {
	exact string
	re    *regexp.Regexp
}

// CompilePath validates a path argument.
func CompilePath(p string) (*PathMatcher, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, InvalidArgument("path", "path must not be empty")
	}
	if len(p) > 1000 || strings.ContainsRune(p, 0) {
		return nil, InvalidArgument("path", "path must be at most 1000 characters without NUL bytes")
	}
	norm := normPath(p)
	if !strings.ContainsAny(norm, "*?[") {
		return &PathMatcher{exact: strings.TrimSuffix(norm, "/")}, nil
	}
	if _, err := path.Match(strings.ReplaceAll(norm, "**", "*"), ""); err != nil {
		return nil, InvalidArgument("path", "path is not a valid glob: %v", err)
	}
	var sb strings.Builder
	rooted := strings.HasPrefix(norm, "/") || (len(norm) > 1 && norm[1] == ':')
	if rooted {
		sb.WriteString("^")
	} else {
		sb.WriteString("^(?:.*/)?")
	}
	for i := 0; i < len(norm); i++ {
		c := norm[i]
		switch {
		case c == '*' && i+1 < len(norm) && norm[i+1] == '*':
			i++
			if i+1 < len(norm) && norm[i+1] == '/' {
				i++
				sb.WriteString("(?:.*/)?")
			} else {
				sb.WriteString(".*")
			}
		case c == '*':
			sb.WriteString("[^/]*")
		case c == '?':
			sb.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(norm[i:], ']')
			if j < 0 {
				return nil, InvalidArgument("path", "path glob has an unclosed '['")
			}
			sb.WriteString(norm[i : i+j+1])
			i += j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	sb.WriteString("$")
	re, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, InvalidArgument("path", "path is not a valid glob")
	}
	return &PathMatcher{re: re}, nil
}

// normPath turns Windows separators into '/'.
func normPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// Match reports whether a file path from a transcript matches.
func (pm *PathMatcher) Match(file string) bool {
	f := normPath(file)
	if pm.re != nil {
		return pm.re.MatchString(f)
	}
	if f == pm.exact {
		return true
	}
	if strings.HasSuffix(f, pm.exact) {
		rest := f[:len(f)-len(pm.exact)]
		return strings.HasSuffix(rest, "/") || strings.HasPrefix(pm.exact, "/")
	}
	// Windows paths are case-insensitive.
	if len(f) > 1 && f[1] == ':' {
		lf, le := strings.ToLower(f), strings.ToLower(pm.exact)
		if lf == le || strings.HasSuffix(lf, "/"+strings.TrimPrefix(le, "/")) {
			return true
		}
	}
	return false
}

// FileActivity lists every touch of matching files in the sessions, newest first.
func (snap *Snapshot) FileActivity(pm *PathMatcher, sessions []*Session, tr TimeRange) []FileTouch {
	// Counted first, then filled: on a whole history the list is tens of
	// thousands of touches, and growing it by doubling would hold twice that.
	each := func(fn func(FileTouch)) {
		for _, s := range sessions {
			for _, call := range s.Calls() {
				if call.Action == ActionNone || !tr.Contains(call.Time) {
					continue
				}
				for p, a := range call.Touches() {
					if pm.Match(p) {
						fn(FileTouch{Session: s, Call: call, Path: p, Action: a})
					}
				}
			}
		}
	}
	n := 0
	each(func(FileTouch) { n++ })
	out := make([]FileTouch, 0, n)
	each(func(t FileTouch) { out = append(out, t) })
	sort.SliceStable(out, func(i, j int) bool { return out[i].Call.Time > out[j].Call.Time })
	return out
}
