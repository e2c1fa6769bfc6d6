package redact

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
)

// maxPath bounds a path's output; it is longer than any real path.
const maxPath = 1024

// Path is a path read from the logs: a cwd, a file path, a project folder,
// a repo name. It leaves redacted like Text and, in addition, with a home
// directory at its start shown as "~" (see the package comment for which
// prefixes count), cut to at most 1024 runes, the last being "…". Every way
// out is redacted, as for Text; invalid UTF-8 leaves as U+FFFD and is never
// an error.
//
// The zero Path is empty. Paths are small values, safe for concurrent use;
// like Text they hold the string behind a pointer and are not comparable
// with ==; use Equal.
type Path struct {
	_   [0]func()
	raw *string
}

// FromLogPath wraps s, a path read from a transcript (or built from one, as
// a project folder is); like FromLog it keeps s itself.
func FromLogPath(s string) Path { return Path{raw: box(s)} }

// Redacted returns the path with its home directory shown as "~" and
// secrets replaced by "[REDACTED:<rule>]": "/home/dev/src/x" is "~/src/x",
// "C:\Users\dev\proj" is "~\proj", "-home-dev-src-x" is "~-src-x".
func (p Path) Redacted() string {
	return clip(String(showHome(validUTF8(unbox(p.raw)), home.Load())), maxPath, false)
}

// IsZero reports whether the path is empty.
func (p Path) IsZero() bool { return unbox(p.raw) == "" }

// ContainsFold reports whether sub occurs in the path, ignoring case, as the
// repo filter matches. It matches the path as read, home directory
// included (a caller may pass its full cwd), except that secrets count as
// their markers, as for Text.ContainsFold.
func (p Path) ContainsFold(sub string) bool {
	return containsFoldRunes(String(validUTF8(unbox(p.raw))), sub)
}

// Equal reports whether two paths are the same string as read.
func (p Path) Equal(o Path) bool { return unbox(p.raw) == unbox(o.raw) }

// String returns Redacted.
func (p Path) String() string { return p.Redacted() }

// Format formats the redacted path with any verb and flags.
func (p Path) Format(f fmt.State, verb rune) { formatRedacted(f, verb, p.Redacted()) }

// MarshalJSON encodes the redacted path as a JSON string.
func (p Path) MarshalJSON() ([]byte, error) { return json.Marshal(p.Redacted()) }

// MarshalText returns the redacted path.
func (p Path) MarshalText() ([]byte, error) { return []byte(p.Redacted()), nil }

// LogValue makes log/slog record the redacted path.
func (p Path) LogValue() slog.Value { return slog.StringValue(p.Redacted()) }

// homeDir is the running user's home directory in the two forms a path from
// the logs can hold it.
type homeDir struct {
	plain   string // cleaned: /home/dev, C:\Users\dev
	encoded string // as a Claude Code project folder: -home-dev, C--Users-dev
	fold    bool   // a drive-letter home: compared ignoring ASCII case
}

// home is the running user's home directory, or nil. It is the package's
// one piece of shared state, set by main through SetHome: a Path must be
// able to show itself from String and MarshalJSON, which take no
// arguments, so the home cannot be passed where it is needed.
var home atomic.Pointer[homeDir]

// HomeIdentity is a comparable value that changes whenever SetHome is
// called: a caller that remembers what Output returned compares it to know
// whether its memory still holds.
func HomeIdentity() any { return home.Load() }

// SetHome tells the package the running user's home directory, so that a
// home outside the conventional places (/srv/dev, D:\dev) is shown as "~"
// too. main calls it once, before serving, with what os.UserHomeDir
// returned; nothing below main looks the home up itself. It is safe to call
// concurrently with Redacted (the value is swapped atomically), but answers
// already written keep the home they were written with. A dir that is not
// absolute, or is a filesystem root, is ignored (the conventional rules
// still apply); "" clears it.
func SetHome(dir string) {
	h := newHomeDir(dir)
	home.Store(h)
}

func newHomeDir(dir string) *homeDir {
	dir = strings.TrimRight(dir, `/\`)
	switch {
	case len(dir) > 1 && isPathSep(dir[0]):
		return &homeDir{plain: dir, encoded: encodeProject(dir)}
	case len(dir) > 3 && isASCIILetter(dir[0]) && dir[1] == ':' && isPathSep(dir[2]):
		return &homeDir{plain: dir, encoded: encodeProject(dir), fold: true}
	}
	return nil
}

// encodeProject is Claude Code's project folder name for a path: every rune
// that is not an ASCII letter or digit becomes '-'.
func encodeProject(p string) string {
	var b strings.Builder
	b.Grow(len(p))
	for _, r := range p {
		if r < 0x80 && classes[r]&cAlnum != 0 {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// showHome replaces a home directory at the start of p, and one at the
// start of any segment that is an encoded project folder name, with "~".
func showHome(p string, h *homeDir) string {
	if n := homeLen(p, h, false); n > 0 {
		p = "~" + p[n:]
	}
	var b strings.Builder
	last := 0
	for start := 0; start < len(p); {
		end := start
		for end < len(p) && !isPathSep(p[end]) {
			end++
		}
		if n := homeLen(p[start:end], h, true); n > 0 {
			b.WriteString(p[last:start])
			b.WriteString("~")
			last = start + n
		}
		start = end + 1
	}
	if last == 0 {
		return p
	}
	b.WriteString(p[last:])
	return b.String()
}

// homeLen returns the length of the home directory that starts p, or 0: the
// longer of the running user's home and a conventional one. encoded reads p
// as a project folder name, in which every separator (and a drive's colon)
// is '-'. A home ends at the end of p or at a separator.
func homeLen(p string, h *homeDir, encoded bool) int {
	n := conventionalHome(p, encoded)
	if h == nil {
		return n
	}
	want, sep := h.plain, isPathSep
	if encoded {
		want, sep = h.encoded, isDash
	}
	if len(p) < len(want) || (len(p) > len(want) && !sep(p[len(want)])) || len(want) <= n {
		return n
	}
	for i := 0; i < len(want); i++ {
		a, b := p[i], want[i]
		if a != b && !(sep(a) && sep(b)) && !(h.fold && toLower(a) == toLower(b)) {
			return n
		}
	}
	return len(want)
}

// conventionalHome returns the length of a home directory in a conventional
// place at the start of p, or 0: /home/<name>, /Users/<name>, /root,
// /var/home/<name>, X:\Users\<name>, and the same drive seen from WSL
// (/mnt/x/Users/<name>) or Git Bash (/x/Users/<name>). Drive letters and
// "Users" match in any case; \ and / are both separators.
func conventionalHome(p string, encoded bool) int {
	sep, colon := isPathSep, byte(':')
	if encoded {
		sep, colon = isDash, '-'
	}
	i, drive := 0, false
	switch {
	case len(p) > 0 && sep(p[0]):
		i = 1
	case len(p) > 2 && isASCIILetter(p[0]) && p[1] == colon && sep(p[2]):
		i, drive = 3, true
	default:
		return 0
	}
	// The first four segments, as [start, end) offsets.
	var segs [4][2]int
	n := 0
	for n < len(segs) && i <= len(p) {
		j := i
		for j < len(p) && !sep(p[j]) {
			j++
		}
		segs[n] = [2]int{i, j}
		n++
		i = j + 1
	}
	seg := func(k int) string {
		if k >= n {
			return ""
		}
		return p[segs[k][0]:segs[k][1]]
	}
	users := func(k int) bool { return strings.EqualFold(seg(k), "users") }
	letter := func(k int) bool { s := seg(k); return len(s) == 1 && isASCIILetter(s[0]) }
	name := func(k int) int {
		if !homeName(seg(k)) {
			return 0
		}
		return segs[k][1]
	}
	switch {
	case drive:
		if users(0) {
			return name(1)
		}
	case seg(0) == "home":
		return name(1)
	case seg(0) == "root":
		return segs[0][1]
	case users(0):
		return name(1)
	case seg(0) == "var" && seg(1) == "home":
		return name(2)
	case seg(0) == "mnt" && letter(1) && users(2):
		return name(3)
	case letter(0) && users(1):
		return name(2)
	}
	return 0
}

// homeName reports whether s names a user's home folder: not empty, not .
// or .., and not one of the shared folders beside the homes.
func homeName(s string) bool {
	switch {
	case s == "" || s == "." || s == "..":
		return false
	case strings.EqualFold(s, "Shared"), strings.EqualFold(s, "Public"),
		strings.EqualFold(s, "Default"), strings.EqualFold(s, "All Users"),
		strings.EqualFold(s, "Default User"):
		return false
	}
	return true
}

func isPathSep(c byte) bool { return c == '/' || c == '\\' }

func isDash(c byte) bool { return c == '-' }

func isASCIILetter(c byte) bool { return classes[c]&(cUpper|cLower) != 0 }

// Output redacts one string of an answer, whatever field it came from:
// secrets replaced, and a home directory at its start shown as "~" (a no-op
// for anything that is not a path). It does not clip.
func Output(s string) string { return String(showHome(validUTF8(s), home.Load())) }
