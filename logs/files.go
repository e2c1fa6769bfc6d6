package logs

import (
	"iter"
	"path"
	"regexp"
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
	all   bool   // a glob every path matches
	tail  string // with re: the glob's literal end, which every match ends with
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
	rooted := strings.HasPrefix(norm, "/") || (len(norm) > 1 && norm[1] == ':')
	if !rooted {
		// An unrooted glob matches at any depth already: a leading "**/"
		// adds nothing but backtracking, and what is left of "**/*" (or
		// "**") matches every path.
		for strings.HasPrefix(norm, "**/") && len(norm) > 3 {
			norm = norm[3:]
		}
		if norm == "*" || norm == "**" {
			return &PathMatcher{all: true}, nil
		}
	}
	re, tail, err := globRegexp(norm, rooted)
	if err != nil {
		return nil, err
	}
	return &PathMatcher{re: re, tail: tail}, nil
}

// globRegexp translates a glob (separators normalized) to a regexp: "**/"
// any folders, "**" anything, "*" and "?" within one path element, a
// bracket class as it is; an unrooted glob may start at any element. tail
// is the glob's literal end ("*.go": ".go"), which every match ends with:
// Match refuses a path without it before the regexp backtracks through it.
func globRegexp(norm string, rooted bool) (re *regexp.Regexp, tail string, err error) {
	var sb strings.Builder
	lit := 0 // where the literal run at the end of norm starts
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
			lit = i + 1
		case c == '*':
			sb.WriteString("[^/]*")
			lit = i + 1
		case c == '?':
			sb.WriteString("[^/]")
			lit = i + 1
		case c == '[':
			j := strings.IndexByte(norm[i:], ']')
			if j < 0 {
				return nil, "", InvalidArgument("path", "path glob has an unclosed '['")
			}
			sb.WriteString(norm[i : i+j+1])
			i += j
			lit = i + 1
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	sb.WriteString("$")
	re, err = regexp.Compile(sb.String())
	if err != nil {
		return nil, "", InvalidArgument("path", "path is not a valid glob")
	}
	return re, norm[lit:], nil
}

// normPath turns Windows separators into '/'.
func normPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// Match reports whether a file path from a transcript matches.
func (pm *PathMatcher) Match(file string) bool {
	if pm.all {
		return true
	}
	f := normPath(file)
	if pm.re != nil {
		return strings.HasSuffix(f, pm.tail) && pm.re.MatchString(f)
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

// FileTouches yields every touch of matching files in the sessions, a
// session at a time in their order, each session's calls in order: for a
// caller that keeps only some of them (a page), which a list of every
// touch of a whole history held at once (120,000 at 4 GB, 4.6 MB). The
// touch yielded is valid until the next.
func (snap *Snapshot) FileTouches(pm *PathMatcher, sessions []*Session, tr TimeRange) iter.Seq[*FileTouch] {
	// A glob's answer is kept per path: Claude reads and edits the same
	// files again and again, and a glob is a backtracking regexp (two
	// thirds of a warm "**/*" over the 1 GB history went to it). The memo
	// keeps at most globMemo paths: a history of ever new paths (the
	// generated one edits a new path in every call) is matched path by path
	// past that.
	match := pm.Match
	if pm.re != nil {
		seen := map[string]bool{}
		match = func(p string) bool {
			f := normPath(p)
			if !strings.HasSuffix(f, pm.tail) {
				return false // refused without the regexp: not worth a place in seen
			}
			v, ok := seen[p]
			if !ok {
				v = pm.re.MatchString(f) // what Match does once the tail is there
				if len(seen) < globMemo {
					seen[p] = v
				}
			}
			return v
		}
	}
	return func(yield func(*FileTouch) bool) {
		var t FileTouch
		for _, s := range sessions {
			for _, call := range s.Calls() {
				if call.Action == ActionNone || !tr.Contains(call.Time) {
					continue
				}
				all := call.eachTouch(func(p string, a FileAction) bool {
					if !match(p) {
						return true
					}
					t = FileTouch{Session: s, Call: call, Path: p, Action: a}
					return yield(&t)
				})
				if !all {
					return
				}
			}
		}
	}
}

// globMemo is the most paths a glob's memo keeps (see FileTouches).
const globMemo = 8192
