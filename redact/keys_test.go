package redact

import (
	"encoding/binary"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// slowClear runs the matcher that rawAt falls back on at the operator p of
// a raw line (rawColon or rawAssignment, no shortcut before it) in a fresh
// scanner and reports whether the line is still clear.
func slowClear(s string, p int) bool {
	sc := scanner{s: s, raw: true}
	if s[p] == ':' {
		sc.rawColon(p)
	} else {
		sc.rawAssignment(p)
	}
	return !sc.maybe && len(sc.cands) == 0
}

func TestCommonKeyNames(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range commonKeyNames {
		if !keyNameOK(name) {
			t.Errorf("%q is listed but commonKey may not answer for it", name)
		}
		if seen[name] {
			t.Errorf("%q is listed twice", name)
		}
		seen[name] = true
		if in := `{"` + name + `":1}`; !commonKey(in, len(name)+3) {
			t.Errorf("commonKey(%q) = false", in)
		}
	}
}

// commonKeyModel is commonKey written plainly: the name runs from the
// quote before the closing " or \" of the key.
func commonKeyModel(s string, p int) bool {
	if p < 1 || s[p-1] != '"' {
		return false
	}
	e := p - 1
	if e > 0 && s[e-1] == '\\' {
		e--
	}
	q := strings.LastIndexByte(s[:e], '"')
	return q >= 0 && slices.Contains(commonKeyNames, s[q+1:e])
}

// TestCommonKeyAnswersAsRawColon puts each listed name and near misses
// (secret words, one letter off, escapes, backslashes before a quote,
// bytes no name has, names too long for its words) in the quotes of a raw
// key, before values of every kind (URLs too), and checks that commonKey
// answers as its model, and only where the slow matcher finds the ':'
// clear.
func TestCommonKeyAnswersAsRawColon(t *testing.T) {
	names := append([]string{"tokenx", "api_key", "apiKey", "password", "secret", "x_token",
		"authorization", "input_token", "output_token", "cache_read_input_tokenx", "Type", "TYPE",
		"typ", "ype", "types", "ttype", "typee", "", "ty pe", `ty\npe`, `ty\"pe`, `\u0074ype`,
		`type\`, `\type`, "ty:pe", "ty=pe", "ty/pe", "tÿpe", strings.Repeat("x", 31),
		strings.Repeat("x", 32), "zzzzzzzzzzcache_creation_input_tokens", "x" + strings.Repeat("_", 30),
		"cache_creation_input_token", "sessionIdx", "xsessionId"}, commonKeyNames...)
	opens := []string{`"`, `\"`, `\\"`, `'`, "", "`"}
	closes := []string{`"`, `\"`, `\\"`, `\\\"`, `'`, `"\`}
	befores := []string{"", "{", ",", " ", "x", `\`, `\\`, `"`, `{"a":1,`, strings.Repeat("a", 40) + ","}
	values := []string{"", `"x"`, `"` + genericValue + `"`, genericValue, `//u:` + urlPassword + `@h/`,
		`\/\/u:` + urlPassword + `@h`, `/\/u:` + urlPassword + `@h`, `\"` + genericValue + `\"`, "1234", "{",
		"[", ":", "=", " " + genericValue, `\t` + genericValue, `\n`, `"` + awsSecret + `"`}
	hits := 0
	for _, name := range names {
		for _, open := range opens {
			for _, close := range closes {
				for _, before := range befores {
					for _, v := range values {
						in := before + open + name + close + ":" + v
						p := len(before + open + name + close)
						want := commonKeyModel(in, p)
						got := commonKey(in, p)
						if got != want {
							t.Fatalf("commonKey(%q, %d) = %v, want %v", in, p, got, want)
						}
						if got {
							hits++
							if !slowClear(in, p) {
								t.Fatalf("commonKey(%q, %d) clears a ':' the slow matcher does not", in, p)
							}
						}
					}
				}
			}
		}
	}
	corpusLines(t, func(line string) {
		for p := 1; p < len(line); p++ {
			if line[p] != ':' {
				continue
			}
			if got, want := commonKey(line, p), commonKeyModel(line, p); got != want {
				t.Fatalf("commonKey(%.300q, %d) = %v, want %v", line, p, got, want)
			} else if got {
				hits++
				if !slowClear(line, p) {
					t.Fatalf("commonKey(%.300q, %d) clears a ':' the slow matcher does not", line, p)
				}
			}
		}
	})
	t.Logf("%d keys cleared by commonKey", hits)
}

// plainKeyModel is plainKey as it was written before its fast paths, on
// assignOp: plainKey must clear at least what it clears.
func plainKeyModel(s string, p int) bool {
	n := len(s)
	if s[p] == ':' && p+2 < n && (s[p+1] == '/' || s[p+1] == '\\' && s[p+2] == '/') {
		return false
	}
	nameEnd, v, ok := assignOp(s, p)
	if !ok {
		return true
	}
	for k := 0; k < 8 && v < n && (s[v] == ' ' || s[v] == '\t'); k++ {
		v++
	}
	if v >= n {
		return true
	}
	switch c := s[v]; {
	case c == '\\':
	case isQuote(c):
		if v+9 <= n {
			w := binary.LittleEndian.Uint64([]byte(s[v+1 : v+9]))
			if zeroByte(w^(lsb*uint64(c)))|zeroByte(w^(lsb*'\n'))|zeroByte(w^(lsb*'\r')) != 0 {
				return true
			}
		}
	case classes[c]&cValue == 0:
		return true
	default:
		for k := v + 1; k < n && k < v+8; k++ {
			if classes[s[k]]&cValue == 0 {
				if s[k] != '=' && s[k] != '\\' {
					return true
				}
				break
			}
		}
	}
	j := nameEnd
	for k := 0; k < 4 && j > 0 && (s[j-1] == ' ' || s[j-1] == '\t'); k++ {
		j--
	}
	if j > 0 && (s[j-1] == '?' || s[j-1] == ']') {
		j--
	}
	if j > 0 && isQuote(s[j-1]) {
		j--
	}
	var m uint32
	k := j
	for ; k > 0 && j-k <= maxName && classes[s[k-1]]&cName != 0; k-- {
		m |= letterBit[s[k-1]]
	}
	if k > 0 && s[k-1] == '\\' {
		return false
	}
	return !mayHoldSecretWord(m)
}

// TestPlainKeyAnswersAsSlowMatcher builds assignments of names, blanks,
// operators and values of every kind, escapes inside and after them, and
// checks at each operator that plainKey clears at least what plainKeyModel
// clears, and beyond it only what the slow matcher clears, there and over
// the public corpora; FindJSON finds what the decoded line holds.
//
// (Where both clear, the slow matcher may not: after eight blanks it reads
// eight more, and Find, like plainKey, takes the ninth for the end of an
// empty value.)
func TestPlainKeyAnswersAsSlowMatcher(t *testing.T) {
	names := []string{"", "x", "token", "api_key", "password", "Note", "status", "a.b-c_d", "AWS_SECRET_ACCESS_KEY",
		strings.Repeat("n", 79), strings.Repeat("n", 80), "secret" + strings.Repeat("n", 76), `pass\nword`,
		`\u0074oken`, `tok\"en`, `\\token`, `\token`, "tok en"}
	befores := []string{"", " ", "\t", "    ", "     ", `"`, `\"`, `\\"`, "'", "?", "]", `\t`, `\`, "`"}
	ops := []string{":", "=", ":=", "=>", "==", "!=", "::", "=~", "+=", "://", `:\/\/`, ":/", `:\`, "=:", ":=:"}
	blanks := []string{"", " ", "\t", "        ", "         ", `\t`, " \t"}
	values := []string{"", "ab", "abcdefg", "abcdefgh", genericValue, awsSecret, `abc\n`, `abc\"`, `abc\\`,
		`abc\/def`, `abc\u0041defgh`, `abc\t`, `abc\b`, `abcdefg\n`, `abcdefgh\n`, "abc=", "abc==", "abc(", "abc[",
		`"ab"`, `"abcdefg"`, `"abcdefgh"`, `"` + genericValue + `"`, `'ab'`, `'` + awsSecret + `'`, `\"ab\"`,
		`\"abcdefg\"`, `\"abcdefgh\"`, `\"ab\n`, `\"ab\\`, `\"ab\/cd`, `\"ab\u0041`, `\"` + genericValue + `\"`,
		`\"ab"`, `\"abcdefg\"`, `\"abcdef\`, `\"ab\/c\" ` + genericValue, `\"ab\u0041\"xyz`, `\"a\\\"xyzw`,
		`\"ab\/cdefgh\"`, `\/ab"cdefgh`, `\uab\"cdefgh`, `\"`, `\n`, `\r`, `\\`, `\/`, `\u0041`, `\n` + genericValue, "{", "[", "(",
		",", "\n", "é" + genericValue}
	afters := []string{"", " ", ",", `"`, `\`, `\n`, genericValue, `\/x`, `\u0041`}
	added := 0
	check := func(in string) {
		for p := 1; p < len(in); p++ {
			if in[p] != ':' && in[p] != '=' {
				continue
			}
			got, model := plainKey(in, p), plainKeyModel(in, p)
			if model && !got {
				t.Fatalf("plainKey(%.300q, %d) = false, its model clears it", in, p)
			}
			if got && !model {
				added++
				if !slowClear(in, p) {
					t.Fatalf("plainKey(%.300q, %d) clears an operator the slow matcher does not", in, p)
				}
			}
		}
	}
	r := rand.New(rand.NewSource(5))
	pick := func(l []string) string { return l[r.Intn(len(l))] }
	for trial := 0; trial < 300000; trial++ {
		in := pick(names) + pick(befores) + pick(ops) + pick(blanks) + pick(values) + pick(afters)
		if r.Intn(4) == 0 {
			in = pick(jsonNoise) + in
		}
		check(in)
		sameAsDecoded(t, in)
	}
	corpusLines(t, check)
	if added == 0 {
		t.Fatal("no operator cleared by plainKey's escape rules")
	}
	t.Logf("%d operators cleared that the model did not", added)
}

// TestMayStartAtAnswersAsRawAt puts the prefixes of Bearer, Basic, AWS,
// Google and underscore tokens, in every case and one byte off, before
// blanks and tokens, and checks that mayStartAt rules out only pairs at
// which rawAt finds nothing, there and over the public corpora.
func TestMayStartAtAnswersAsRawAt(t *testing.T) {
	prefixes := []string{"Bearer", "bearer", "BEARER", "BeArEr", "Basic", "basic", "BASIC", "bea", "bas", "Bear",
		"Basi", "bEarer", "ba", "be", "b", "xBearer", `\nBearer`, `\u0020Bearer`, "bEARE", "ghp_", "gho_", "ghu_",
		"ghs_", "ghr_", "ghx_", "gh_", "github_pat_", "github_", "xgithub_pat_", "hf_", "npm_", "sk_live_", "rk_test_",
		"sk_", "rk_", "whsec_", "Ghp_", "hp_", "xhf_", "pm_", "ec_", "AKIA", "ASIA", "AIza", "AKIB", "AKI", "AIz", "AI",
		"AS", "A", `\nAKIA`, "xAKIA"}
	seps := []string{"", " ", "\t", `\t`, ":", "="}
	tails := []string{fill(40, 1), strings.ToUpper(fill(16, 2)), fill(36, 3), genericValue, "", "x", bearerTok}
	rejected, found := 0, 0
	check := func(in string) {
		for j := 0; j+1 < len(in); j++ {
			kind := rawPair[uint16(in[j])|uint16(in[j+1])<<8]
			if kind < rtUnder {
				continue
			}
			sc := scanner{s: in, raw: true}
			clear := sc.rawAt(j+1, uint32(kind))
			if !clear {
				found++
			}
			if !mayStartAt(in, j, kind) {
				rejected++
				if !clear {
					t.Fatalf("mayStartAt(%.300q, %d, %d) = false, rawAt finds a match", in, j, kind)
				}
			}
		}
	}
	for _, before := range []string{"", " ", "x", `\n`, "{"} {
		for _, prefix := range prefixes {
			for _, sep := range seps {
				for _, tail := range tails {
					check(before + prefix + sep + tail)
				}
			}
		}
	}
	corpusLines(t, check)
	if rejected == 0 || found == 0 {
		t.Fatalf("%d pairs ruled out, %d matches: the test reaches neither answer", rejected, found)
	}
	t.Logf("%d pairs ruled out, %d matches", rejected, found)
}

func TestKeyNameOK(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"type", true}, {"input_tokens", true}, {"cache_creation_input_tokens", true}, {strings.Repeat("x", 31), true},
		{"", false}, {strings.Repeat("x", 32), false}, {"password", false}, {"api_key", false}, {"apiKey", false},
		{"input_token", false}, {"tokenx", false}, {"x_secret", false}, {"authorization", false}, {"ty pe", false},
		{`ty\npe`, false}, {`type\`, false}, {"ty:pe", false}, {"tÿpe", false},
	} {
		if got := keyNameOK(tc.name); got != tc.want {
			t.Errorf("keyNameOK(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
