package redact

import (
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
