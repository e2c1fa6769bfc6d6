package logs

import (
	"strings"
	"sync"
)

// The summaries' strings that repeat across files — a working folder, a
// branch, a client version, a model, a tool's name — are kept once for the
// process instead of once per file: at 4 GB (15,000 files) they were
// 100,000 strings of 1.3 MB, each allocated amid a read's garbage, where a
// few live strings hold a span of the heap that the collector cannot give
// back. A history holds a few hundred distinct ones; the table stops
// growing at internMax entries (a hostile history of distinct names), and
// longer strings than internMaxLen are copied as before.
var interned struct {
	mu sync.Mutex
	m  map[string]string
}

const (
	internMax    = 1 << 14
	internMaxLen = 256
)

// intern returns s, or the process's copy of it: never a view of s, which
// may be a reader's buffer.
func intern(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > internMaxLen {
		return strings.Clone(s)
	}
	interned.mu.Lock()
	defer interned.mu.Unlock()
	if v, ok := interned.m[s]; ok {
		return v
	}
	v := strings.Clone(s)
	if interned.m == nil {
		interned.m = map[string]string{}
	}
	if len(interned.m) < internMax {
		interned.m[v] = v
	}
	return v
}
