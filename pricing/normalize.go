package pricing

import (
	"strings"
)

// families are the Claude model lines whose names Normalize may reorder.
var families = map[string]bool{"opus": true, "sonnet": true, "haiku": true, "fable": true, "mythos": true}

// Normalize reduces the many spellings of a model name to the plain API id
// used as a table key. It lowercases; drops everything up to the last '/'
// ("anthropic/", "bedrock/", "vertex_ai/", ARNs); drops provider and region
// prefixes before "claude" ("us.anthropic.", "global.anthropic.",
// "anthropic.", "global."); drops Vertex "@20250929" and Claude Code "[1m]"
// suffixes and Bedrock "-v1:0"/"-v2"/":0" suffixes; turns dotted versions
// into dashed ones ("claude-opus-4.6" -> "claude-opus-4-6"); and puts the
// family where the API id has it ("claude-4-6-opus" -> "claude-opus-4-6",
// "claude-sonnet-3-7" -> "claude-3-7-sonnet"). Other suffixes such as the
// proxy forms "-1m" and "-fast" are kept; Lookup prices them by prefix.
func Normalize(model string) string {
	s := strings.ToLower(strings.TrimSpace(model))
	if s == SyntheticModel {
		return s
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "claude"); i > 0 && (s[i-1] == '.' || s[i-1] == ':') {
		s = s[i:]
	}
	s = stripBedrockSuffix(s)
	s = dashVersions(s)
	s = reorderFamily(s)
	return strings.Trim(s, "-")
}

// stripBedrockSuffix removes a trailing ":N" and then a trailing "-vN".
func stripBedrockSuffix(s string) string {
	if i := strings.LastIndexByte(s, ':'); i >= 0 && isDigits(s[i+1:]) {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "-v"); i >= 0 && isDigits(s[i+2:]) {
		s = s[:i]
	}
	return s
}

// dashVersions turns a '.' between two digits into '-'.
func dashVersions(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	b := []byte(s)
	for i := 1; i < len(b)-1; i++ {
		if b[i] == '.' && isDigit(b[i-1]) && isDigit(b[i+1]) {
			b[i] = '-'
		}
	}
	return string(b)
}

// reorderFamily puts the family word where Anthropic's ids have it: after
// the version for 3.x ("claude-3-5-sonnet"), before it from 4 on
// ("claude-sonnet-4-5").
func reorderFamily(s string) string {
	seg := strings.Split(s, "-")
	if len(seg) < 3 || seg[0] != "claude" {
		return s
	}
	if families[seg[1]] {
		// claude-<family>-<major>[-<minor>]-...
		n := versionLen(seg[2:])
		if n == 0 || seg[2] > "3" || len(seg[2]) > 1 {
			return s
		}
		out := append([]string{"claude"}, seg[2:2+n]...)
		out = append(out, seg[1])
		return strings.Join(append(out, seg[2+n:]...), "-")
	}
	n := versionLen(seg[1:])
	if n == 0 || len(seg) < 2+n || !families[seg[1+n]] {
		return s
	}
	if len(seg[1]) == 1 && seg[1] <= "3" {
		return s
	}
	// claude-<major>[-<minor>]-<family>-... with major >= 4
	out := []string{"claude", seg[1+n]}
	out = append(out, seg[1:1+n]...)
	return strings.Join(append(out, seg[2+n:]...), "-")
}

// versionLen counts the leading version segments: a major of one or two
// digits and an optional minor of one or two digits.
func versionLen(seg []string) int {
	if len(seg) == 0 || !isMinorVersion(seg[0]) {
		return 0
	}
	if len(seg) > 1 && isMinorVersion(seg[1]) {
		return 2
	}
	return 1
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
