package redact

import "strings"

// Rule names. They are part of the output contract of scan_secrets: never
// rename one.
const (
	ruleAnthropic   = "anthropic_api_key"
	ruleOpenAI      = "openai_api_key"
	ruleGitHub      = "github_token"
	ruleGitLab      = "gitlab_token"
	ruleAWSKeyID    = "aws_access_key_id"
	ruleAWSSecret   = "aws_secret_access_key"
	ruleGoogle      = "google_api_key"
	ruleSlack       = "slack_token"
	ruleStripe      = "stripe_key"
	ruleNPM         = "npm_token"
	rulePyPI        = "pypi_token"
	ruleHuggingFace = "huggingface_token"
	ruleTwilio      = "twilio_api_key"
	ruleSendGrid    = "sendgrid_api_key"
	ruleJWT         = "jwt"
	rulePrivateKey  = "private_key"
	ruleBearer      = "bearer_token"
	ruleBasicAuth   = "basic_auth"
	ruleURL         = "url_credentials"
	ruleGeneric     = "generic_secret"
)

// rules lists every rule with its rotation guidance, in the order Rules
// reports them.
var rules = []struct{ name, guidance string }{
	{ruleAnthropic, "Delete the key in the Claude Console (console.anthropic.com, Settings > API keys) and create a new one; for sk-ant-oat/ort OAuth tokens, log out of Claude Code (/logout) and log in again to revoke them."},
	{ruleOpenAI, "Revoke the key at platform.openai.com/api-keys (project or service-account keys under the project's API keys) and create a new one."},
	{ruleGitHub, "Revoke the token at github.com/settings/tokens (OAuth and app tokens under Settings > Applications) and create a new one with the least scope needed."},
	{ruleGitLab, "Revoke the token under GitLab User Settings > Access tokens (or the project/group's Access tokens page) and create a new one."},
	{ruleAWSKeyID, "In the IAM console (Users > Security credentials) deactivate and delete the access key, create a new one, and check CloudTrail for its use; for temporary ASIA keys, revoke the role's active sessions."},
	{ruleAWSSecret, "In the IAM console (Users > Security credentials) deactivate and delete the access key this secret belongs to, create a new one, and check CloudTrail for its use."},
	{ruleGoogle, "Regenerate or delete the key in Google Cloud console > APIs & Services > Credentials, and restrict the new key to the APIs and referrers that need it."},
	{ruleSlack, "Revoke the token at api.slack.com/apps (your app > OAuth & Permissions, or the auth.revoke method); for an incoming-webhook URL, remove the webhook and create a new one."},
	{ruleStripe, "Roll the key in the Stripe Dashboard > Developers > API keys (webhook signing secrets under Webhooks), then deploy the new key."},
	{ruleNPM, "Revoke the token at npmjs.com > Access Tokens (or with npm token revoke) and create a new granular token."},
	{rulePyPI, "Remove the token at pypi.org > Account settings > API tokens and create a new one scoped to a single project."},
	{ruleHuggingFace, "Invalidate the token at huggingface.co/settings/tokens and create a new fine-grained one."},
	{ruleTwilio, "Delete the API key in the Twilio Console (Account > API keys & tokens) and create a new one."},
	{ruleSendGrid, "Delete the key in SendGrid (Settings > API Keys) and create a new one with restricted access."},
	{ruleJWT, "A JWT stays valid until it expires: end the session or revoke the refresh token that produced it at the issuing service, and rotate the signing key if the token is long-lived."},
	{rulePrivateKey, "Treat the key pair as compromised: generate a new key, replace the public key wherever it is trusted (authorized_keys, deploy keys, certificates, cloud service-account keys), then delete the old one."},
	{ruleBearer, "Revoke the token at the service that issued it (its API or token settings page) and issue a new one."},
	{ruleBasicAuth, "Change the password of that account on the service the Authorization header was sent to."},
	{ruleURL, "Change the password of the user named in the URL on that server (database, broker, registry, proxy), and read it from the environment instead of the URL."},
	{ruleGeneric, "Rotate the value at the service it belongs to (the variable name usually says which) and keep the new one in a secret store or environment variable that is not echoed into transcripts."},
}

// allMarkers holds every marker text; a secret that is part of one could not
// be removed from String's output, and is not reported.
var allMarkers = func() string {
	var b strings.Builder
	for _, r := range rules {
		b.WriteString(marker(r.name))
		b.WriteByte('\n')
	}
	return b.String()
}()

// Rules returns every rule name in a stable order. The slice is the caller's.
func Rules() []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.name
	}
	return out
}

// Guidance returns how to rotate a credential found by rule: where to revoke
// it and what to do next. It returns "" for a name that is not a rule.
func Guidance(rule string) string {
	for _, r := range rules {
		if r.name == rule {
			return r.guidance
		}
	}
	return ""
}

// Priorities for overlapping candidates: the more specific rule wins.
const (
	prioGeneric    = 1 // NAME=value assignments
	prioContext    = 2 // Bearer/Basic values, URL passwords
	prioStructured = 3 // JWTs, AWS secret keys
	prioProvider   = 4 // provider tokens, PEM blocks
)

type candidate struct {
	start, end int
	rule       string
	prio       int
}

// scanner collects candidates over one input.
type scanner struct {
	s     string
	cands []candidate
	runs  [16]classRun // one per class passed to span

	// raw says s is a raw JSON line rather than the text it stands for; see
	// jsonClean. The matchers whose result can depend on how the line's
	// escapes decode set maybe instead of deciding.
	raw, maybe bool
}

func (sc *scanner) add(start, end int, rule string, prio int) {
	if end-start >= minRepeat && strings.Contains(allMarkers, sc.s[start:end]) {
		return
	}
	sc.cands = append(sc.cands, candidate{start: start, end: end, rule: rule, prio: prio})
}

// trigger marks the bytes at which some rule may begin or be anchored.
var trigger = [256]bool{'-': true, '_': true, '.': true, ':': true, '=': true,
	'A': true, 'S': true, 'J': true, 'B': true, 'b': true}

func (sc *scanner) run() { sc.runRange(0, len(sc.s)) }

// runRange runs the matchers of the triggers in s[from:to]; they read s on
// either side.
func (sc *scanner) runRange(from, to int) {
	s := sc.s
	for i := from; i < to; i++ {
		c := s[i]
		if !trigger[c] {
			continue
		}
		switch c {
		case '-':
			sc.atDash(i)
		case '_':
			sc.atUnderscore(i)
		case '.':
			sc.atDot(i)
		case ':':
			if i+2 < len(s) && s[i+1] == '/' && s[i+2] == '/' {
				sc.urlCredentials(i)
			} else {
				sc.assignment(i)
			}
		case '=':
			sc.assignment(i)
		case 'A':
			sc.atA(i)
		case 'S':
			sc.atS(i)
		case 'J':
			sc.atJ(i)
		case 'B', 'b':
			sc.atB(i)
		}
	}
}

// atS handles Twilio's SK keys.
func (sc *scanner) atS(i int) {
	s := sc.s
	if i+1 < len(s) && s[i+1] == 'K' && boundaryBefore(s, i) {
		sc.token(i, i+2, cHexLower, 32, 32, ruleTwilio)
	}
}

// atJ handles the J of a JWT's "eyJ".
func (sc *scanner) atJ(i int) {
	s := sc.s
	if i >= 2 && s[i-1] == 'y' && s[i-2] == 'e' && boundaryBefore(s, i-2) {
		sc.jwt(i - 2)
	}
}

// boundaryBefore reports whether a token may start at i: the byte before is
// not a letter or digit, or is the letter of a JSON escape such as \n or the
// last digit of \u003d.
func boundaryBefore(s string, i int) bool {
	if i == 0 || classes[s[i-1]]&cAlnum == 0 {
		return true
	}
	if i >= 2 && s[i-2] == '\\' {
		switch s[i-1] {
		case 'n', 'r', 't', 'b', 'f':
			return true
		}
	}
	if i >= 6 && s[i-6] == '\\' && s[i-5] == 'u' && allClass(s[i-4:i], cHex) {
		return true
	}
	return false
}

// endsWith reports whether lit ends at i and starts at a token boundary.
func endsWith(s string, i int, lit string) bool {
	j := i - len(lit)
	return j >= 0 && s[j:i] == lit && boundaryBefore(s, j)
}

// span returns the end of the run of class bytes starting at i, but no
// more than limit bytes past i. The maximal run is measured once and
// remembered (one slot per class; scanning moves forward), so triggers
// repeated inside one long run (sk-sk-sk-..., token:token:...) cost constant
// time each instead of up to limit bytes.
func (sc *scanner) span(i int, class uint32, limit int) int {
	var r *classRun
	for k := range sc.runs {
		if c := &sc.runs[k]; c.class == class || c.class == 0 {
			r = c
			break
		}
	}
	if r == nil {
		r = &classRun{} // more classes than slots: measure without remembering
	}
	if r.class != class || i < r.start || i > r.end {
		s := sc.s
		j := i
		for j < len(s) && classes[s[j]]&class != 0 {
			j++
		}
		*r = classRun{class: class, start: i, end: j}
	}
	if limit < r.end-i {
		return i + limit
	}
	return r.end
}

// classRun is a maximal run s[start:end] of bytes of one class.
type classRun struct {
	class      uint32
	start, end int
}

func allClass(s string, class uint32) bool {
	for i := 0; i < len(s); i++ {
		if classes[s[i]]&class == 0 {
			return false
		}
	}
	return true
}

// token records a provider token s[start:end] whose body starts at body,
// consists of min..max class bytes and is not followed by a letter or digit.
func (sc *scanner) token(start, body int, class uint32, min, max int, rule string) {
	s := sc.s
	end := sc.span(body, class, max+1)
	if n := end - body; n < min || n > max {
		return
	}
	if end < len(s) && classes[s[end]]&cAlnum != 0 {
		return
	}
	if placeholderToken(s[body:end]) {
		return
	}
	sc.add(start, end, rule, prioProvider)
}

func (sc *scanner) atDash(i int) {
	s := sc.s
	if i+1 < len(s) && s[i+1] == '-' {
		if strings.HasPrefix(s[i:], "-----BEGIN ") {
			if sc.raw {
				sc.maybe = true // the body's line breaks may be escaped
				return
			}
			sc.privateKey(i)
		}
		return
	}
	if i == 0 {
		return
	}
	switch s[i-1] {
	case 'k':
		if endsWith(s, i, "sk") {
			sc.skDash(i - 2)
		}
	case 't':
		for _, p := range gitlabPrefixes {
			if endsWith(s, i, p) {
				sc.gitlab(i-len(p), i+1)
				return
			}
		}
	case 'a', 'b', 'e', 'p', 'r', 's':
		if i >= 4 && s[i-4:i-1] == "xox" && boundaryBefore(s, i-4) {
			sc.token(i-4, i+1, cSlack, 15, 300, ruleSlack)
		}
	case 'i':
		if endsWith(s, i, "pypi") {
			for _, p := range pypiPrefixes {
				if strings.HasPrefix(s[i+1:], p) {
					sc.token(i-4, i+1+len(p), cB64URL, 50, 500, rulePyPI)
					return
				}
			}
		}
	}
}

var gitlabPrefixes = []string{"glpat", "glptt", "gldt", "glrt"}

// pypiPrefixes are the base64 macaroon headers naming pypi.org and
// test.pypi.org.
var pypiPrefixes = []string{"AgEIcHlwaS5vcmc", "AgENdGVzdC5weXBpLm9yZw"}

var openAIPrefixes = []string{"proj-", "svcacct-", "admin-", "None-"}

// skDash handles s[start:] == "sk-...": Anthropic keys, then OpenAI's.
func (sc *scanner) skDash(start int) {
	s := sc.s
	j := start + 3
	if strings.HasPrefix(s[j:], "ant-") {
		// sk-ant-<kind><2 digits>-<body>: api03, admin01, oat01, ort01.
		k := j + 4
		l := sc.span(k, cLower, 9)
		d := sc.span(l, cDigit, 3)
		if l-k < 2 || l-k > 8 || d-l != 2 || d >= len(s) || s[d] != '-' {
			return
		}
		sc.token(start, d+1, cB64URL, 20, 300, ruleAnthropic)
		return
	}
	for _, p := range openAIPrefixes {
		if strings.HasPrefix(s[j:], p) {
			sc.token(start, j+len(p), cB64URL, 20, 300, ruleOpenAI)
			return
		}
	}
	// Older user keys carry "T3BlbkFJ" (base64 of "OpenAI"); the legacy form
	// is exactly 48 letters and digits.
	if end := sc.span(j, cB64URL, 301); end-j >= 20 && end-j <= 300 && strings.Contains(s[j:end], "T3BlbkFJ") {
		sc.token(start, j, cB64URL, 20, 300, ruleOpenAI)
		return
	}
	sc.token(start, j, cAlnum, 48, 48, ruleOpenAI)
}

// gitlab handles glpat- and its siblings; newer tokens carry dots.
func (sc *scanner) gitlab(start, body int) {
	s := sc.s
	end := sc.span(body, cName, 301)
	for end > body && (s[end-1] == '.' || s[end-1] == '-') {
		end--
	}
	if n := end - body; n < 20 || n > 300 || placeholderToken(s[body:end]) {
		return
	}
	if end < len(s) && classes[s[end]]&cAlnum != 0 {
		return
	}
	sc.add(start, end, ruleGitLab, prioProvider)
}

func (sc *scanner) atUnderscore(i int) {
	s := sc.s
	if i == 0 {
		return
	}
	switch s[i-1] {
	case 'p', 'o', 'u', 's', 'r':
		// ghp_ gho_ ghu_ ghs_ ghr_
		if i >= 3 && s[i-3] == 'g' && s[i-2] == 'h' && boundaryBefore(s, i-3) {
			sc.token(i-3, i+1, cAlnum, 36, 251, ruleGitHub)
		}
	case 'b':
		if endsWith(s, i, "github") && strings.HasPrefix(s[i+1:], "pat_") {
			sc.token(i-6, i+5, cWord, 50, 251, ruleGitHub)
		}
	case 'f':
		if endsWith(s, i, "hf") {
			sc.token(i-2, i+1, cAlnum, 34, 64, ruleHuggingFace)
		}
	case 'm':
		if endsWith(s, i, "npm") {
			sc.token(i-3, i+1, cAlnum, 36, 36, ruleNPM)
		}
	case 'k':
		if (endsWith(s, i, "sk") || endsWith(s, i, "rk")) &&
			(strings.HasPrefix(s[i+1:], "live_") || strings.HasPrefix(s[i+1:], "test_")) {
			sc.token(i-2, i+6, cAlnum, 20, 247, ruleStripe)
		}
	case 'c':
		if endsWith(s, i, "whsec") {
			if sc.raw {
				sc.maybe = true // the body may hold an escaped '/'
				return
			}
			sc.token(i-5, i+1, cB64Body, 32, 64, ruleStripe)
		}
	}
}

func (sc *scanner) atDot(i int) {
	s := sc.s
	switch {
	case endsWith(s, i, "SG"):
		// SG.<16..32>.<30..64>
		a := i + 1
		b := sc.span(a, cB64URL, 33)
		if n := b - a; n >= 16 && n <= 32 && b < len(s) && s[b] == '.' {
			sc.token(i-2, b+1, cB64URL, 30, 64, ruleSendGrid)
		}
	case sc.raw && i >= 5 && s[i-5:i] == "hooks" && strings.HasPrefix(s[i+1:], "slack.com"):
		sc.maybe = true // the path's '/' may be escaped
	case i >= 5 && s[i-5:i] == "hooks" && strings.HasPrefix(s[i+1:], "slack.com/services/"):
		// The path T.../B.../<secret> is the credential; the host stays.
		body := i + 1 + len("slack.com/services/")
		end := sc.span(body, cWord|cSlash, 201)
		if n := end - body; n >= 20 && n <= 200 && s[body] == 'T' && strings.Count(s[body:end], "/") >= 2 &&
			!placeholderToken(s[body:end]) {
			sc.add(body, end, ruleSlack, prioProvider)
		}
	}
}

func (sc *scanner) atA(i int) {
	s := sc.s
	if i+4 > len(s) || !boundaryBefore(s, i) {
		return
	}
	switch s[i+1 : i+4] {
	case "KIA", "SIA":
		sc.token(i, i+4, cUpper|cDigit, 16, 16, ruleAWSKeyID)
	case "Iza":
		sc.token(i, i+4, cB64URL, 35, 35, ruleGoogle)
	}
}

// jwt handles s[start:] == "eyJ...": header.payload.signature, and the two
// further segments of an encrypted token.
func (sc *scanner) jwt(start int) {
	s := sc.s
	h := sc.span(start, cB64URL, 8192)
	if h-start < 10 || h >= len(s) || s[h] != '.' {
		return
	}
	p := sc.span(h+1, cB64URL, 65536)
	if p-(h+1) < 10 || p >= len(s) || s[p] != '.' {
		return
	}
	end := sc.span(p+1, cB64URL, 8192)
	if end-(p+1) < 16 {
		return
	}
	for k := 0; k < 2 && end+1 < len(s) && s[end] == '.'; k++ {
		e := sc.span(end+1, cB64URL, 65536)
		if e == end+1 {
			break
		}
		end = e
	}
	sc.add(start, end, ruleJWT, prioStructured)
}

func (sc *scanner) atB(i int) {
	s := sc.s
	if i+6 > len(s) || !boundaryBefore(s, i) {
		return
	}
	if lowerEq(s[i+1:i+6], "earer") {
		sc.authValue(i+6, ruleBearer)
	} else if lowerEq(s[i+1:i+5], "asic") {
		sc.authValue(i+5, ruleBasicAuth)
	}
}

// lowerEq reports whether s equals the lowercase ASCII word w, ignoring case.
func lowerEq(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// authValue handles the credential after an HTTP auth scheme word ending at
// j: "Bearer <token>" or "Basic <base64 of user:password>".
func (sc *scanner) authValue(j int, rule string) {
	s := sc.s
	k := j
	for k < len(s) && k-j < 4 && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if sc.raw && k+1 < len(s) && k-j < 4 && s[k] == '\\' && (s[k+1] == 't' || s[k+1] == 'u') {
		sc.maybe = true // an escaped tab is a blank
		return
	}
	if k == j {
		return
	}
	end := sc.span(k, cBearer, 8193)
	if end-k > 8192 {
		return
	}
	if sc.raw && end+1 < len(s) && s[end] == '\\' && (s[end+1] == '/' || s[end+1] == 'u') {
		sc.maybe = true // an escaped '/' continues the token
		return
	}
	for end > k && s[end-1] == '.' {
		end--
	}
	tok := s[k:end]
	if rule == ruleBasicAuth {
		if !basicCredentials(tok) {
			return
		}
	} else if len(tok) < 16 || !randomLooking(tok) {
		return
	}
	sc.add(k, end, rule, prioContext)
}

// privateKey handles s[start:] == "-----BEGIN ...". The block runs through
// its END line; newlines may be real or the two bytes \n of escaped JSON. A
// block cut off before its END line is taken up to where its body stops.
func (sc *scanner) privateKey(start int) {
	s := sc.s
	labelStart := start + len("-----BEGIN ")
	labelEnd := sc.span(labelStart, cUpper|cDigit|cSpace, 65)
	if !strings.HasPrefix(s[labelEnd:], "-----") {
		return
	}
	label := s[labelStart:labelEnd]
	if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
		return
	}
	body := labelEnd + 5
	limit := body + 1<<17
	if limit > len(s) {
		limit = len(s)
	}
	j, b64 := body, 0
	for j < limit {
		c := s[j]
		if c == '-' && strings.HasPrefix(s[j:], "-----") {
			break
		}
		if classes[c]&cPEM == 0 {
			break
		}
		if classes[c]&cB64Std != 0 {
			b64++
		}
		j++
	}
	if b64 < 32 {
		return
	}
	end := j
	if strings.HasPrefix(s[j:], "-----END ") {
		if e := sc.span(j+len("-----END "), cUpper|cDigit|cSpace, 65); strings.HasPrefix(s[e:], "-----") {
			end = e + 5
		}
	}
	if end == j {
		// Cut off: end the finding at the last body byte, not on a newline.
		for end > body {
			if classes[s[end-1]]&cSpace != 0 {
				end--
			} else if end-2 >= body && s[end-2] == '\\' && (s[end-1] == 'n' || s[end-1] == 'r') {
				end -= 2
			} else {
				break
			}
		}
	}
	sc.add(start, end, rulePrivateKey, prioProvider)
}

// urlCredentials handles scheme://user:password@host with i at the ':'.
func (sc *scanner) urlCredentials(i int) {
	s := sc.s
	if i == 0 || classes[s[i-1]]&cAlnum == 0 {
		return
	}
	a := i + 3
	e := a
	for e < len(s) && e-a <= 512 && classes[s[e]]&cURLStop == 0 {
		e++
	}
	if e-a > 512 {
		return
	}
	at := strings.LastIndexByte(s[a:e], '@')
	if at < 0 {
		return
	}
	at += a
	colon := strings.IndexByte(s[a:at], ':')
	if colon < 0 || at+1 >= e || classes[s[at+1]]&(cAlnum|cBracket) == 0 {
		return
	}
	pw := a + colon + 1
	if !urlPasswordOK(s[pw:at]) {
		return
	}
	sc.add(pw, at, ruleURL, prioContext)
}

// assignment handles NAME=value, NAME: value, "name": "value", name :=
// "value", name => 'value' and env["NAME"] = value, with p at the '=' or ':'.
func (sc *scanner) assignment(p int) {
	s := sc.s
	nameEnd, v, ok := assignOp(s, p)
	if !ok {
		return
	}
	start, end, _ := nameBefore(s, nameEnd)
	if start >= end {
		return
	}
	kind := classifyName(s[start:end])
	if kind == nameNone {
		return
	}

	vs, ve, ok := sc.parseValue(v)
	if !ok {
		return
	}
	val := s[vs:ve]
	if kind == nameAWS && awsSecretValue(val) {
		sc.add(vs, ve, ruleAWSSecret, prioStructured)
		return
	}
	if genericValueOK(val) {
		sc.add(vs, ve, ruleGeneric, prioGeneric)
	}
}

// assignOp reads the operator at p ('=' or ':'): where the name before it
// ends and where the value after it starts, or !ok when it is no
// assignment (==, =~, !=, :=:, a ':' of a "::" ...).
func assignOp(s string, p int) (nameEnd, v int, ok bool) {
	n := len(s)
	nameEnd, v = p, p+1
	if s[p] == '=' {
		if v < n && (s[v] == '=' || s[v] == '~') {
			return 0, 0, false
		}
		if v < n && s[v] == '>' {
			v++
		}
		if p > 0 {
			switch s[p-1] {
			case ':':
				nameEnd = p - 1
			case '=', '!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '?', '~':
				return 0, 0, false
			}
		}
	} else if (v < n && (s[v] == ':' || s[v] == '=')) || (p > 0 && s[p-1] == ':') {
		return 0, 0, false
	}
	return nameEnd, v, true
}

// nameBefore returns the name s[start:end] of an assignment whose operator
// (or its ':' of ":=") starts at nameEnd: it walks back over blanks, a
// TypeScript '?', a subscript's ']' and the closing quote of a quoted
// (possibly JSON-escaped) name. The name is empty when there is none, or
// when it is longer than maxName.
//
// sure is false when, read in a raw JSON line, the walk met an escape whose
// decoding could change the answer: an escaped tab among the blanks, an
// escaped backslash before the quote, a \u escape at the name's start.
// For decoded text sure means nothing.
func nameBefore(s string, nameEnd int) (start, end int, sure bool) {
	sure = true
	j := nameEnd
	for k := 0; k < 4 && j > 0 && (s[j-1] == ' ' || s[j-1] == '\t'); k++ {
		j--
	}
	if j >= 2 && s[j-1] == 't' && s[j-2] == '\\' {
		sure = false
	}
	if j > 0 && (s[j-1] == '?' || s[j-1] == ']') {
		j--
	}
	if j > 0 && isQuote(s[j-1]) {
		j--
		if j > 0 && s[j-1] == '\\' {
			j--
			if j > 0 && s[j-1] == '\\' {
				sure = false
			}
		}
	}
	end, start = j, j
	for start > 0 && end-start <= maxName+5 && classes[s[start-1]]&cName != 0 {
		start--
	}
	if end-start > maxName {
		// Too long; in a raw line the run may start with the letter of a
		// \n (or the five bytes of a \uXXXX), without which it fits.
		if end-start <= maxName+5 && start > 0 && s[start-1] == '\\' && strings.IndexByte("nrtu", s[start]) >= 0 {
			sure = false
		}
		return end, end, sure
	}
	if start > 0 && start < end && s[start-1] == '\\' {
		switch s[start] {
		case 'n', 'r', 't':
			start++
		case 'u':
			sure = false
		}
	}
	return start, end, sure
}

const (
	maxName  = 80
	maxValue = 4096
)

// awsSecretValue reports whether the value of an AWS-named assignment is a
// secret access key.
func awsSecretValue(val string) bool {
	return len(val) == 40 && allClass(val, cB64Body) && !placeholderToken(val)
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// parseValue finds the value that starts after blanks at v: quoted with
// ", ', ` or the JSON-escaped \", or bare up to a delimiter. A bare value
// followed by '(' or '[' is an expression, not a literal.
func (sc *scanner) parseValue(v int) (start, end int, ok bool) {
	s := sc.s
	n := len(s)
	for k := 0; k < 8 && v < n && (s[v] == ' ' || s[v] == '\t'); k++ {
		v++
	}
	if v >= n {
		return 0, 0, false
	}
	limit := func(i int) int {
		if i+maxValue+1 < n {
			return i + maxValue + 1
		}
		return n
	}
	switch c := s[v]; {
	case c == '\\' && v+1 < n && s[v+1] == '"':
		start = v + 2
		i := strings.IndexByte(s[start:limit(start)], '\\')
		if i < 0 || start+i+1 >= n || s[start+i+1] != '"' {
			return 0, 0, false
		}
		return start, start + i, true
	case isQuote(c):
		start = v + 1
		lim := limit(start)
		for i := start; i < lim; i++ {
			switch s[i] {
			case c:
				return start, i, true
			case '\\', '\n', '\r':
				return 0, 0, false
			}
		}
		return 0, 0, false
	default:
		// A bare value stops at ':' and '=' (but keeps trailing '='
		// padding): bare user:pass is not taken, and in exchange every
		// nested assignment (token:token:...) is evaluated over a short
		// value, keeping the scan linear.
		start = v
		end = sc.span(start, cValue, maxValue+1)
		for end < n && s[end] == '=' && end-start <= maxValue {
			end++
		}
		if end-start > maxValue || (end < n && classes[s[end]]&cValue != 0) {
			return 0, 0, false
		}
		if end < n && (s[end] == '(' || s[end] == '[') {
			return 0, 0, false
		}
		for end > start && s[end-1] == '.' {
			end--
		}
		return start, end, true
	}
}
