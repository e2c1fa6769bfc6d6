// Package redact finds credentials in text and replaces them with
// "[REDACTED:<rule>]". It is the one redactor every tool runs over transcript
// text before that text leaves the process, and the detection engine behind
// scan_secrets. It imports only the standard library and knows nothing about
// logs, tools or MCP.
//
// Detection is a single pass over the bytes that stops only at a few trigger
// bytes ('-', '_', '.', ':', '=', 'A', 'S', 'J', 'B', 'b'); each trigger looks
// for a literal prefix or an assignment around it and only then measures the
// token. Every matcher scans a bounded window, so the work is linear in the
// input and no input, however hostile, makes it slow.
//
// Two more entry points serve scan_secrets and give Find's answer. FindJSON
// reads a raw line of JSON as the text its string escapes stand for; a
// pre-check over the raw bytes (the same matchers, made sound for escapes)
// clears most lines without decoding them. FindReader scans a stream of any
// length a piece at a time, the matchers' bounded windows telling how much
// of it to keep.
//
// What counts as a secret, and the deliberate choices:
//
//   - Provider tokens are recognised by their published prefixes and lengths
//     and must stand alone (no letter or digit directly before or after; a
//     JSON escape such as \n before counts as a boundary). Bodies that are one
//     repeated byte or contain EXAMPLE, "your", xxxxxx or ****** are taken
//     for documentation placeholders.
//   - When findings overlap, the more specific rule wins: provider tokens and
//     PEM keys, then JWTs and AWS secret keys, then Bearer/Basic values and URL
//     passwords, then generic assignments; ties go to the longer match.
//   - generic_secret needs a name containing secret, token, password, passwd,
//     pwd, passphrase, api_key/apikey, access_key, private_key or auth
//     (case-insensitive, separators ignored; "tokens", "tokenizer" and
//     "author" do not count, nor names whose last word says the value is not
//     the secret: token_count, secret_name, auth_url, private_key_id, ...).
//     Its value is quoted (", ', ` or the JSON-escaped \") or bare; a bare
//     value ends at whitespace, a quote, \ , ; & ( ) [ ] { } < > | : or =
//     (trailing = padding is kept), so bare user:pass is not taken but nested
//     assignments stay cheap. The value must be 8..4096 bytes without
//     whitespace, contain a letter, and not be a placeholder ($VAR, ${...},
//     {{...}}, <...>, %s, xxx..., ***, "...", your-..., example, placeholder,
//     redacted), a reference (process.env.X, os.environ[...], getenv,
//     secrets.X, self.x, a URL, a path, an e-mail address, a call) or an
//     identifier (letters and _ . - only, in words of three or more letters
//     on average: accessToken, GITHUB_TOKEN, password). "changeme" is kept as
//     a secret: it is a real, widely leaked default password.
//   - The entropy check: the value's Shannon entropy over its bytes must be at
//     least min(3.0, 0.8*log2(len)) bits per byte. The bound grows with length
//     because a string of n bytes cannot exceed log2(n) bits; 3.0 admits hex
//     (at most 4 bits per byte) and ordinary passwords while rejecting
//     repetitive strings such as aaaaaaa1 or 12121212ab.
//   - url_credentials and basic_auth take any non-empty password except
//     placeholders, the words password, pass, passwd, pwd, secret, pw and
//     token, and UPPER_CASE names, which are documentation. Bearer values
//     need 16 bytes and pass the placeholder, identifier and entropy tests.
//   - String also replaces every other occurrence, anywhere in the text, of
//     a detected secret of 8 bytes or more. Shorter secrets (only URL and
//     Basic passwords can be) are replaced where found only.
//
// A Finding's Start and End delimit exactly the bytes String replaces, so
// s[f.Start:f.End] == f.Secret: the token, the password of a URL, the value
// of an assignment (its name stays visible), or the whole PEM block.
//
// # Strings from the logs
//
// Text (prose), Path (cwd, file paths, project folders, repo names) and ID
// (tool_use_id, uuids, agent ids, branch and model names) carry strings read
// from transcripts to the tools. Like html/template's escaping, redaction is
// not a call to remember: none of them has a way out that skips the
// redactor — not String, not fmt, not encoding/json, not log/slog — so a
// new field cannot leak by omission. Text is clipped on request, after
// redaction; Path and ID carry a generous fixed bound instead.
//
// A Path shows a home directory at its start as "~", keeping the separator
// that followed it: the running user's home (given by main through SetHome)
// and the conventional ones — /home/<name>, /Users/<name>, /root,
// /var/home/<name>, X:\Users\<name> or X:/Users/<name> with any drive
// letter, and the same drive seen from WSL (/mnt/x/Users/<name>) or Git Bash
// (/x/Users/<name>). Only whole segments count: /home/devx is the home of
// devx, /homeless/x is left alone, and /Users/Shared, C:\Users\Public and
// the like are not a user's home. Windows forms match in any case.
//
// Claude Code names a project folder after its cwd with every character
// that is not a letter or digit turned into '-' (-home-dev-src-x,
// C--Users-dev-twin). Any segment of a Path that starts with such an
// encoded home shows it as "~" and keeps the rest encoded: -home-dev-src-x
// is "~-src-x", never a decoded "~/src/x". The encoding is lossy ('/', '.',
// '_' and '-' are all '-'), so a decoded path would be a guess presented as
// a fact (my-app would become my/app); the real cwd, where a transcript has
// one, is a Path of its own. A user name with '-' or '.' in it is only
// partly hidden in the encoded form unless it is the running user's home.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"unicode/utf8"
)

// Finding is one credential found in a string.
type Finding struct {
	// Rule is the stable snake_case rule name, one of Rules().
	Rule string
	// Start and End are byte offsets of the replaced span in the input.
	Start, End int
	// Secret is the credential itself, equal to input[Start:End].
	Secret string
}

// minRepeat is the shortest secret String also hunts for elsewhere in the
// text. Shorter ones (only URL passwords can be shorter) are replaced where
// found but may legitimately occur elsewhere (a user name equal to the
// password, a common word).
const minRepeat = 8

// Find returns the non-overlapping findings in s in input order, or nil. It
// never fails and never panics; invalid UTF-8 is scanned as bytes. The
// returned Secrets share memory with s.
func Find(s string) []Finding {
	sc := scanner{s: s}
	sc.run()
	if len(sc.cands) == 0 {
		return nil
	}
	chosen := resolve(sc.cands)
	out := make([]Finding, len(chosen))
	for i, c := range chosen {
		out[i] = Finding{Rule: c.rule, Start: c.start, End: c.end, Secret: s[c.start:c.end]}
	}
	return out
}

// String returns s with the secret of every finding replaced by
// "[REDACTED:<rule>]". Names of assignments and the scheme://user: part of
// URLs stay visible. Any other occurrence of a detected secret of 8 bytes or
// more is replaced too, wherever it appears. When nothing is found, s itself
// is returned without copying.
func String(s string) string {
	fs := Find(s)
	if len(fs) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16*len(fs))
	last := 0
	for _, f := range fs {
		b.WriteString(s[last:f.Start])
		b.WriteString(marker(f.Rule))
		last = f.End
	}
	b.WriteString(s[last:])
	return scrubRepeats(b.String(), fs)
}

// Mask returns a preview of a secret: its first 6 characters, "********" and
// its last 4. For a secret of fewer than 20 characters it returns "", and the
// caller shows only the rule. Invalid UTF-8 in the preview becomes '?'.
func Mask(secret string) string {
	if utf8.RuneCountInString(secret) < 20 {
		return ""
	}
	head := 0
	for k := 0; k < 6; k++ {
		_, size := utf8.DecodeRuneInString(secret[head:])
		head += size
	}
	tail := len(secret)
	for k := 0; k < 4; k++ {
		_, size := utf8.DecodeLastRuneInString(secret[:tail])
		tail -= size
	}
	return strings.ToValidUTF8(secret[:head], "?") + "********" + strings.ToValidUTF8(secret[tail:], "?")
}

// Fingerprint returns the first 16 hex digits of the SHA-256 of secret: a
// stable identity for a secret that reveals nothing about it.
func Fingerprint(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:8])
}

func marker(rule string) string {
	return "[REDACTED:" + rule + "]"
}

// resolve orders candidates and drops overlaps, keeping the better of two
// overlapping candidates: higher priority, then longer, then earlier.
func resolve(cands []candidate) []candidate {
	sortCandidates(cands)
	out := cands[:0]
	for _, c := range cands {
		if n := len(out); n > 0 && c.start < out[n-1].end {
			if better(c, out[n-1]) {
				out[n-1] = c
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

// sortCandidates orders candidates by start, the better first.
func sortCandidates(cands []candidate) {
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.start != b.start {
			return a.start < b.start
		}
		return better(a, b)
	})
}

func better(a, b candidate) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	if la, lb := a.end-a.start, b.end-b.start; la != lb {
		return la > lb
	}
	return a.start < b.start
}

// scrubRepeats replaces, in the already redacted text out, every remaining
// occurrence of a found secret of minRepeat bytes or more. Occurrences
// remain when the secret also appears outside a detected context, and, in
// contrived inputs, where a marker abuts text that spells a secret. A few
// passes settle every realistic input; if text still leaks after them, the
// whole string is withheld rather than returned with a secret in it.
func scrubRepeats(out string, fs []Finding) string {
	var secrets []string
	var rules []string
	seen := map[string]bool{}
	for _, f := range fs {
		if len(f.Secret) >= minRepeat && !seen[f.Secret] {
			seen[f.Secret] = true
			secrets = append(secrets, f.Secret)
			rules = append(rules, f.Rule)
		}
	}
	if len(secrets) == 0 {
		return out
	}
	for pass := 0; pass < 4; pass++ {
		var hits []candidate
		occurrences(out, secrets, func(start, k int) {
			hits = append(hits, candidate{start: start, end: start + len(secrets[k]), rule: rules[k]})
		})
		if len(hits) == 0 {
			return out
		}
		hits = resolve(hits)
		var b strings.Builder
		b.Grow(len(out))
		last := 0
		for _, h := range hits {
			b.WriteString(out[last:h.start])
			b.WriteString(marker(h.rule))
			last = h.end
		}
		b.WriteString(out[last:])
		out = b.String()
	}
	return marker(fs[0].Rule)
}

// occurrences calls visit for the leftmost non-overlapping occurrences in s
// of each of secrets (each at least minRepeat bytes); replacing those breaks
// every occurrence. A few secrets are searched with
// strings.Index; many share one pass that filters positions on a hash of
// their first four bytes.
func occurrences(s string, secrets []string, visit func(start, k int)) {
	if len(secrets) <= 16 {
		for k, sec := range secrets {
			for off := 0; off < len(s); {
				i := strings.Index(s[off:], sec)
				if i < 0 {
					break
				}
				visit(off+i, k)
				off += i + len(sec)
			}
		}
		return
	}
	byHead := map[uint32][]int{}
	var present [1 << 16 / 64]uint64
	for k, sec := range secrets {
		h := head4(sec, 0)
		byHead[h] = append(byHead[h], k)
		f := filterSlot(h)
		present[f/64] |= 1 << (f % 64)
	}
	next := make([]int, len(secrets)) // no overlapping hits of one secret
	for i := 0; i+minRepeat <= len(s); i++ {
		h := head4(s, i)
		if f := filterSlot(h); present[f/64]&(1<<(f%64)) == 0 {
			continue
		}
		for _, k := range byHead[h] {
			if i >= next[k] && strings.HasPrefix(s[i:], secrets[k]) {
				visit(i, k)
				next[k] = i + len(secrets[k])
			}
		}
	}
}

func head4(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func filterSlot(h uint32) uint32 { return (h * 2654435761) >> 16 }
