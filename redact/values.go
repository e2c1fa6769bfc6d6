package redact

import (
	"encoding/base64"
	"math"
	"strings"
)

// Byte classes, as bits of classes[c].
const (
	cAlnum    uint32 = 1 << iota // A-Z a-z 0-9
	cUpper                       // A-Z
	cLower                       // a-z
	cDigit                       // 0-9
	cHex                         // 0-9 a-f A-F
	cHexLower                    // 0-9 a-f
	cB64URL                      // A-Z a-z 0-9 _ -
	cB64Std                      // A-Z a-z 0-9 + / =
	cB64Body                     // A-Z a-z 0-9 + /
	cWord                        // A-Z a-z 0-9 _
	cSlash                       // /
	cName                        // A-Z a-z 0-9 _ . -   (assignment names, GitLab bodies)
	cBearer                      // RFC 6750 b64token: A-Z a-z 0-9 - . _ ~ + / =
	cValue                       // bytes of an unquoted value
	cPEM                         // bytes of a PEM body, real or JSON-escaped
	cSlack                       // A-Z a-z 0-9 -
	cSpace                       // space, tab, CR, LF
	cBlank                       // space
	cURLStop                     // bytes that end a URL's authority
	cBracket                     // [
)

var classes = func() (t [256]uint32) {
	set := func(chars string, bits uint32) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bits
		}
	}
	const (
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower  = "abcdefghijklmnopqrstuvwxyz"
		digits = "0123456789"
		alnum  = upper + lower + digits
	)
	set(alnum, cAlnum|cB64URL|cB64Std|cB64Body|cWord|cName|cBearer|cPEM|cSlack)
	set(upper, cUpper)
	set(lower, cLower)
	set(digits, cDigit|cHex|cHexLower)
	set("abcdef", cHex|cHexLower)
	set("ABCDEF", cHex)
	set("_", cB64URL|cWord|cName|cBearer)
	set("-", cB64URL|cName|cBearer|cSlack|cPEM)
	set("+/", cB64Std|cB64Body|cBearer|cPEM)
	set("=", cB64Std|cBearer|cPEM)
	set(".", cName|cBearer|cPEM)
	set("~", cBearer)
	set("/", cSlash)
	set(" \t\r\n", cSpace|cPEM)
	set(" ", cBlank)
	set(`\:,`, cPEM)
	set("[", cBracket)
	for c := 0x21; c < 0x7f; c++ {
		t[c] |= cValue
	}
	for _, c := range []byte("\"'`\\,;&()[]{}<>|:=") {
		t[c] &^= cValue
	}
	for c := 0; c <= 0x20; c++ {
		t[c] |= cURLStop
	}
	t[0x7f] |= cURLStop
	set("/?#\"'`\\<>{}|^", cURLStop)
	return t
}()

type nameKind int

const (
	nameNone nameKind = iota
	nameGeneric
	nameAWS
)

// classifyName reports whether an assignment's name says its value is a
// secret, and whether it names an AWS secret access key.
func classifyName(name string) nameKind {
	if !mayHoldSecretWord(letterMask(name)) {
		return nameNone
	}
	var buf [maxName + 1]byte
	k := 0
	for i := 0; i < len(name) && k < len(buf); i++ {
		c := name[i]
		if c == '_' || c == '-' || c == '.' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
		k++
	}
	norm := buf[:k]
	if !hasSecretWord(norm) || string(norm) == "pwd" || string(norm) == "oldpwd" || nonSecretSuffix(name) {
		return nameNone
	}
	if containsB(norm, "secretaccesskey") || (containsB(norm, "aws") && containsB(norm, "secret")) {
		return nameAWS
	}
	return nameGeneric
}

// hasSecretWord looks for the keywords in a lowercased name stripped of
// separators. "tokens", "tokenizer" and "author"/"authority" do not count;
// "authorization" does.
func hasSecretWord(norm []byte) bool {
	for i := 0; i < len(norm); i++ {
		rest := norm[i:]
		switch norm[i] {
		case 's':
			if hasPrefixB(rest, "secret") {
				return true
			}
		case 't':
			if hasPrefixB(rest, "token") {
				if len(rest) == 5 || (rest[5] != 's' && rest[5] != 'i') {
					return true
				}
			}
		case 'p':
			if hasPrefixB(rest, "passw") || hasPrefixB(rest, "passphrase") ||
				hasPrefixB(rest, "pwd") || hasPrefixB(rest, "privatekey") {
				return true
			}
		case 'a':
			if hasPrefixB(rest, "apikey") || hasPrefixB(rest, "accesskey") {
				return true
			}
			if hasPrefixB(rest, "auth") {
				r := rest[4:]
				if !hasPrefixB(r, "or") || hasPrefixB(r, "oriz") || hasPrefixB(r, "oris") {
					return true
				}
			}
		}
	}
	return false
}

// letterBit maps a letter, in either case, to its bit; other bytes to 0.
var letterBit = func() (t [256]uint32) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 1 << (c - 'a')
		t[c-'a'+'A'] = 1 << (c - 'a')
	}
	return t
}()

// letterMask is the set of letters in s, ignoring case.
func letterMask(s string) uint32 {
	var m uint32
	for i := 0; i < len(s); i++ {
		m |= letterBit[s[i]]
	}
	return m
}

// The letters of each keyword hasSecretWord looks for ("passphrase" holds
// those of "passw" but for the w, so it has its own).
var (
	maskSecret     = letterMask("secret")
	maskToken      = letterMask("token")
	maskPassw      = letterMask("passw")
	maskPassphrase = letterMask("passphrase")
	maskPwd        = letterMask("pwd")
	maskPrivateKey = letterMask("privatekey")
	maskAPIKey     = letterMask("apikey")
	maskAccessKey  = letterMask("accesskey")
	maskAuth       = letterMask("auth")
)

// mayHoldSecretWord reports whether a name with the letters m could hold
// one of hasSecretWord's keywords: false means it certainly does not. It
// is the cheap test that spares most names (type, uuid, text, ...) the
// normalising.
func mayHoldSecretWord(m uint32) bool {
	x := ^m // the letters missing
	return x&maskSecret == 0 || x&maskToken == 0 || x&maskPassw == 0 || x&maskPassphrase == 0 ||
		x&maskPwd == 0 || x&maskPrivateKey == 0 || x&maskAPIKey == 0 || x&maskAccessKey == 0 || x&maskAuth == 0
}

func hasPrefixB(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

func containsB(b []byte, sub string) bool {
	for i := 0; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == sub {
			return true
		}
	}
	return false
}

// nonSecretWords are last words of a name that describe something about a
// secret rather than hold it: token_count, secret_name, auth_url, apiKeyHelper.
var nonSecretWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`id ids uid uuid name names type types kind url urls uri
		endpoint host domain port file filename path dir count counts length len size limit
		limits max min ttl expiry expires expiration at in timeout policy provider method methods
		mode header headers env var arn ref version enabled enable disabled required usage prefix
		suffix field fields hint label description desc format pattern regex index budget schema
		scope scopes issuer audience algorithm alg user username email login callback redirect
		service region status state error errors message msg store strategy source location reset
		rotation window interval timestamp time date created updated cache helper command cmd
		script tokens tokenizer`) {
		nonSecretWords[w] = true
	}
}

// nonSecretSuffix reports whether the last word of name (after the last
// separator or camelCase hump) is one of nonSecretWords.
func nonSecretSuffix(name string) bool {
	e := len(name)
	i := e
	for i > 0 && classes[name[i-1]]&(cLower|cDigit) != 0 {
		i--
	}
	if i < e {
		if i > 0 && classes[name[i-1]]&cUpper != 0 {
			i--
		}
	} else {
		for i > 0 && classes[name[i-1]]&(cUpper|cDigit) != 0 {
			i--
		}
	}
	if e-i == 0 || e-i > 16 {
		return false
	}
	var buf [16]byte
	for k := i; k < e; k++ {
		c := name[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k-i] = c
	}
	return nonSecretWords[string(buf[:e-i])]
}

// genericValueOK decides whether the value of a secret-named assignment is
// a credential; see the package comment for the rules.
func genericValueOK(v string) bool {
	if len(v) < 8 || len(v) > maxValue {
		return false
	}
	if strings.EqualFold(v, "changeme") {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	if isPlaceholder(v) || isReference(v) || !hasLetter(v) {
		return false
	}
	return !identifierLike(strings.TrimRight(v, "=")) && entropy(v) >= entropyThreshold(len(v))
}

// randomLooking decides whether a Bearer value is a credential rather than
// a placeholder or a word.
func randomLooking(v string) bool {
	return !isPlaceholder(v) && !identifierLike(strings.TrimRight(v, "=")) && entropy(v) >= entropyThreshold(len(v))
}

// entropyThreshold is the minimum Shannon entropy, in bits per byte, of a
// generic secret of n bytes: min(3.0, 0.8*log2(n)).
func entropyThreshold(n int) float64 {
	return math.Min(3.0, 0.8*math.Log2(float64(n)))
}

// entropy returns the Shannon entropy of the bytes of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// isPlaceholder reports whether v is a stand-in for a secret: a variable
// or template reference, a masked or elided value, or documentation text.
func isPlaceholder(v string) bool {
	if v == "" || allSame(v) {
		return true
	}
	switch v[0] {
	case '<', '{':
		return true
	case '$':
		// $VAR, ${VAR}, $(cmd), ${{ secrets.X }}
		if len(v) > 1 && (v[1] == '{' || v[1] == '(' || classes[v[1]]&(cUpper|cLower) != 0 || v[1] == '_') {
			return true
		}
	case '%':
		// %s, %v, %(password)s, %{x}
		if len(v) == 2 || v[1] == '(' || v[1] == '{' {
			return true
		}
	}
	if strings.HasPrefix(v, "#{") || strings.HasPrefix(v, "[REDACTED") || hasPrefixFold(v, "xxx") {
		return true
	}
	if strings.Contains(v, "***") || strings.Contains(v, "...") || strings.Contains(v, "…") {
		return true
	}
	for _, w := range placeholderWords {
		if containsFold(v, w) {
			return true
		}
	}
	return false
}

var placeholderWords = []string{"your", "example", "placeholder", "redacted", "xxxxx"}

// placeholderToken reports whether the body of a provider token is a
// documentation stand-in: one repeated byte, a run of x or *, or EXAMPLE.
// Real bodies are random, so no entropy test is applied to them.
func placeholderToken(body string) bool {
	return allSame(body) || containsFold(body, "xxxxxx") || strings.Contains(body, "******") ||
		strings.Contains(body, "EXAMPLE") || strings.Contains(body, "example")
}

// referencePrefixes start values that name where a secret lives rather
// than hold it.
var referencePrefixes = []string{"self.", "this.", "args.", "opts.", "options.", "config.",
	"cfg.", "conf.", "settings.", "params.", "props.", "ctx.", "req.", "request.", "env.",
	"secrets.", "vars.", "./", "../", "~/", "/", "file:", "vault:", "arn:aws:"}

var referenceWords = []string{"process.env", "os.environ", "getenv", "import.meta", "env[", "://"}

func isReference(v string) bool {
	for _, p := range referencePrefixes {
		if hasPrefixFold(v, p) {
			return true
		}
	}
	for _, w := range referenceWords {
		if containsFold(v, w) {
			return true
		}
	}
	return emailLike(v)
}

// emailLike reports whether v is a single plain e-mail address.
func emailLike(v string) bool {
	at := strings.IndexByte(v, '@')
	if at <= 0 || strings.IndexByte(v[at+1:], '@') >= 0 || strings.IndexByte(v[at+1:], '.') <= 0 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if classes[c]&cName == 0 && c != '@' && c != '+' && c != '%' {
			return false
		}
	}
	return true
}

// identifierLike reports whether v reads as a name rather than a secret:
// only letters and _ . -, no digits, in words averaging three letters or
// more, where a word starts after a separator or at a lower-to-upper hump
// (accessToken, GITHUB_TOKEN, config.api_key, password).
func identifierLike(v string) bool {
	words, letters := 0, 0
	var prev byte // 0 at a start or separator, 'l' after lower, 'u' after upper
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z':
			if prev == 0 {
				words++
			}
			prev = 'l'
			letters++
		case 'A' <= c && c <= 'Z':
			if prev != 'u' {
				words++
			}
			prev = 'u'
			letters++
		case c == '_' || c == '-' || c == '.':
			prev = 0
		default:
			return false
		}
	}
	return words > 0 && letters >= 3*words
}

// urlPasswordOK reports whether the password of a credential URL is real:
// not empty, not a placeholder, not a documentation word or an UPPER_CASE
// variable name.
func urlPasswordOK(pw string) bool {
	if isPlaceholder(pw) {
		return false
	}
	for _, w := range []string{"password", "pass", "passwd", "pwd", "secret", "pw", "token"} {
		if strings.EqualFold(pw, w) {
			return false
		}
	}
	upperName := len(pw) >= 2
	for i := 0; i < len(pw) && upperName; i++ {
		upperName = classes[pw[i]]&cUpper != 0 || pw[i] == '_'
	}
	return !upperName
}

// basicCredentials reports whether tok is base64 of printable
// "user:password" with a real password.
func basicCredentials(tok string) bool {
	if len(tok) < 8 || len(tok) > 1024 {
		return false
	}
	enc := base64.StdEncoding
	if len(tok)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	raw, err := enc.DecodeString(tok)
	if err != nil {
		return false
	}
	colon := -1
	for i, c := range raw {
		if c < 0x20 || c > 0x7e {
			return false
		}
		if c == ':' && colon < 0 {
			colon = i
		}
	}
	return colon >= 0 && urlPasswordOK(string(raw[colon+1:]))
}

func hasLetter(v string) bool {
	for i := 0; i < len(v); i++ {
		if classes[v[i]]&(cUpper|cLower) != 0 {
			return true
		}
	}
	return false
}

func allSame(v string) bool {
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			return false
		}
	}
	return true
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; p is lowercase.
func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

// containsFold is strings.Contains ignoring ASCII case; sub is lowercase.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if toLower(s[i]) != first {
			continue
		}
		k := 1
		for k < len(sub) && toLower(s[i+k]) == sub[k] {
			k++
		}
		if k == len(sub) {
			return true
		}
	}
	return false
}

func toLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
