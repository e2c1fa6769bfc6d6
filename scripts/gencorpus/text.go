package main

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// This file holds the cheap building blocks: fixed text pools sliced at word
// boundaries, a fixed base64 block, random ids and JSON string escaping.

const (
	hexDigits = "0123456789abcdef"
	base62    = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// needsEscape marks the bytes that cannot appear raw inside a JSON string.
var needsEscape [256]bool

func init() {
	for i := 0; i < 0x20; i++ {
		needsEscape[i] = true
	}
	needsEscape['"'] = true
	needsEscape['\\'] = true
}

// appendJSON appends s as a quoted JSON string. s must be valid UTF-8.
func appendJSON[T string | []byte](b []byte, s T) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !needsEscape[c] {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

const tsLayout = "2006-01-02T15:04:05.000Z"

func appendTS(b []byte, ms int64) []byte {
	b = append(b, '"')
	b = time.UnixMilli(ms).UTC().AppendFormat(b, tsLayout)
	return append(b, '"')
}

func fmtTS(ms int64) string { return time.UnixMilli(ms).UTC().Format(tsLayout) }

func dayUTC(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02") }

// --- random helpers -------------------------------------------------------

func newUUID(r *rand.Rand) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], r.Uint64())
	binary.BigEndian.PutUint64(raw[8:], r.Uint64())
	raw[6] = raw[6]&0x0f | 0x40
	raw[8] = raw[8]&0x3f | 0x80
	var out [36]byte
	j := 0
	for i, c := range raw {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j] = hexDigits[c>>4]
		out[j+1] = hexDigits[c&15]
		j += 2
	}
	return string(out[:])
}

func randB62(r *rand.Rand, prefix string, n int) string {
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for i := 0; i < n; i++ {
		b = append(b, base62[r.IntN(62)])
	}
	return string(b)
}

func randHex(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexDigits[r.IntN(16)]
	}
	return string(b)
}

func rint(r *rand.Rand, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.IntN(hi-lo+1)
}

func rint64(r *rand.Rand, lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + r.Int64N(hi-lo+1)
}

func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// logUniform returns a value between lo and hi whose logarithm is uniform.
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return lo * math.Exp(r.Float64()*math.Log(hi/lo))
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// pickWeighted returns an index drawn with the given weights.
func pickWeighted(r *rand.Rand, w []float64) int {
	var sum float64
	for _, x := range w {
		sum += x
	}
	v := r.Float64() * sum
	for i, x := range w {
		if v < x {
			return i
		}
		v -= x
	}
	return len(w) - 1
}

// --- text pools -----------------------------------------------------------

// pools are built once from a fixed seed: they do not depend on -seed, only
// the offsets taken from them do. Every token is delimited by ' ' or '\n' so
// slicing at a delimiter never splits a UTF-8 sequence.
type pools struct {
	prose []byte
	code  []byte
	logs  []byte
	b64   string
}

var proseWords = strings.Fields(`the a an to of and in for on with that this it is was be are as at by from
we I you they should could would will can may must not no yes when then than because so but or if
function handler request response error value config cache session token file line buffer reader writer
server client query result output input model usage parser decoder encoder stream timeout retry limit
update refactor test tests fix bug issue branch commit merge rebase deploy release build compile lint
migration schema table index column field struct interface method package module import export route
endpoint middleware auth login user account payment invoice order cart product price discount tax
queue worker job event topic consumer producer message batch window bucket metric counter gauge trace
span log logger level warning debug info latency throughput memory allocation goroutine thread lock
mutex channel context cancel deadline signal process container image volume network cluster node pod
service ingress secret key certificate proxy gateway balancer replica shard partition snapshot backup
restore rollback feature flag toggle experiment variant dashboard chart panel widget layout component
state props hook effect render template style theme color font spacing grid flex mobile desktop
browser page navigation link button form validation submit modal dialog tooltip dropdown menu
look check read write run open close start stop add remove rename move copy delete create replace
first next last previous current new old large small fast slow simple clean broken flaky stable
now let's see here there looks like seems good great done ready almost maybe probably actually
I'll I've let me we'll that's it's doesn't isn't won't can't should've
café naïve résumé über 日本語 テスト 한국어 변경 中文 测试 · — → ✓ 🚀 🔧 ✨`)

var identWords = strings.Fields(`user order item cart token session request response handler config cache
client server router store repo queue event metric span logger parser reader writer buffer result
payload record entry batch job task worker pool limit offset cursor page filter sort index key value
node edge graph tree path file dir name id count size total price amount status state flag mode`)

var codeTemplates = []string{
	"func %I(ctx context.Context, %i string) (*%T, error) {",
	"\tif err := %i.Validate(); err != nil {",
	"\t\treturn nil, fmt.Errorf(\"%i: %w\", err)",
	"\t}",
	"}",
	"\t%i := make(map[string]int, %d)",
	"\tfor _, %i := range %i.%I {",
	"\t// TODO(dev): handle the %i case before release",
	"\tconst %i = \"C:\\\\Users\\\\dev\\\\%i\"",
	"import { %I } from \"./%i\";",
	"export function %i(%i: string): Promise<%T> {",
	"  const %i = await fetch(`/api/%i/${%i}`);",
	"  return %i.json() as %T;",
	"def %i(self, %i):",
	"    return self.%i[%i]",
	"    raise ValueError(f\"bad %i: {%i!r}\")",
	"SELECT %i, %i FROM %i WHERE id = $1 AND status = 'active';",
	"  \"%i\": { \"type\": \"string\", \"maxLength\": %d },",
	"type %T struct {",
	"\t%I %T `json:\"%i,omitempty\"`",
	"pub fn %i(&self, %i: &str) -> Result<%T, Error> {",
	"        let %i = self.%i.get(%i).ok_or(Error::NotFound)?;",
	"#[derive(Debug, Clone, Serialize)]",
	"\t\tlog.Printf(\"%i=%v %i=%d\", %i, %d)",
	"",
}

var logTemplates = []string{
	"ok  \tgithub.com/dev/%i/internal/%i\t0.%ds",
	"--- FAIL: Test%I (0.0%ds)",
	"    %i_test.go:%d: got %d, want %d",
	"PASS",
	"npm WARN deprecated %i@%d.%d.%d: this version is no longer supported",
	"> %i@1.%d.0 build",
	"✓ src/%i/%i.test.ts (%d tests) %dms",
	"error[E0308]: mismatched types --> src/%i.rs:%d:%d",
	"Traceback (most recent call last):",
	"  File \"/home/dev/%i/%i.py\", line %d, in %i",
	"KeyError: '%i'",
	"[%d/%d] Compiling %i v0.%d.%d",
	"drwxr-xr-x  %d dev dev  4096 Nov %d 10:%d %i",
	"-rw-r--r--  1 dev dev %d Nov %d 09:%d %i.go",
	"M  internal/%i/%i.go",
	"?? docs/%i.md",
	"warning: unused variable `%i`",
	"INFO  [%i] request completed status=200 duration=%dms",
	"WARN  [%i] retrying after %dms (attempt %d)",
	"C:\\Users\\dev\\%i\\src\\%i.cs(%d,%d): error CS0103: The name '%i' does not exist",
	"",
}

func fillTemplate(sb *strings.Builder, r *rand.Rand, t string) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '%' || i+1 >= len(t) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch t[i] {
		case 'i':
			sb.WriteString(pick(r, identWords))
			if chance(r, 0.3) {
				w := pick(r, identWords)
				sb.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		case 'I', 'T':
			w := pick(r, identWords)
			sb.WriteString(strings.ToUpper(w[:1]) + w[1:])
			if chance(r, 0.5) {
				w = pick(r, identWords)
				sb.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		case 'd':
			sb.WriteString(strconv.Itoa(r.IntN(500)))
		default:
			sb.WriteByte('%')
			sb.WriteByte(t[i])
		}
	}
}

func newPools() *pools {
	r := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, 0xc0ffee))
	const poolSize = 2 << 20
	var sb strings.Builder

	sb.Grow(poolSize + 1024)
	for sb.Len() < poolSize {
		n := rint(r, 5, 22)
		for i := 0; i < n; i++ {
			w := pick(r, proseWords)
			if i == 0 && w[0] >= 'a' && w[0] <= 'z' {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			if chance(r, 0.03) {
				w = "`" + pick(r, identWords) + "`"
			}
			sb.WriteString(w)
			if i < n-1 {
				sb.WriteByte(' ')
			}
		}
		switch v := r.IntN(20); {
		case v < 14:
			sb.WriteString(". ")
		case v < 17:
			sb.WriteString(".\n")
		case v < 18:
			sb.WriteString(".\n\n- ")
		case v < 19:
			sb.WriteString(".\n\n## ")
		default:
			sb.WriteString("?\n")
		}
	}
	sb.WriteString(" \n")
	p := &pools{prose: []byte(sb.String())}

	build := func(tpls []string) []byte {
		sb.Reset()
		for sb.Len() < poolSize {
			fillTemplate(&sb, r, pick(r, tpls))
			sb.WriteByte('\n')
		}
		sb.WriteString(" \n")
		return []byte(sb.String())
	}
	p.code = build(codeTemplates)
	p.logs = build(logTemplates)

	raw := make([]byte, 3<<20)
	for i := 0; i+8 <= len(raw); i += 8 {
		binary.LittleEndian.PutUint64(raw[i:], r.Uint64())
	}
	p.b64 = base64.StdEncoding.EncodeToString(raw)
	return p
}

func isDelim(c byte) bool { return c == ' ' || c == '\n' }

// take returns a slice of about n bytes of pool starting and ending at token
// boundaries. The result aliases pool and must not be modified.
func take(r *rand.Rand, pool []byte, n int) []byte {
	if n <= 0 {
		return nil
	}
	if n > len(pool)/2 {
		n = len(pool) / 2
	}
	off := r.IntN(len(pool) - n - 256)
	i := off
	for !isDelim(pool[i]) {
		i++
	}
	i++
	end := i + n
	for end > i && !isDelim(pool[end]) {
		end--
	}
	return pool[i:end]
}

// b64 returns n bytes (rounded down to a multiple of 4) of valid base64.
func (p *pools) base64(r *rand.Rand, n int) string {
	n &^= 3
	if n > len(p.b64)-4 {
		n = (len(p.b64) - 4) &^ 3
	}
	off := r.IntN((len(p.b64)-n)/4) * 4
	return p.b64[off : off+n]
}
