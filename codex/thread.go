package codex

import "strings"

// thread is what the counting rules of §14 remember while a rollout is read
// in file order: the thread's identity from its first session_meta, the
// models and working directory in force, the cumulative totals already
// seen, the prompts already counted. Summarize and the transcript reader
// (Agent.NewReader) both fold every entry through one thread, so the two
// apply the same rules.
type thread struct {
	sawMeta    bool
	id         string // payload.id of the first session_meta ("" until seen)
	forkedFrom string
	parentID   string
	metaCwd    string // session_meta.cwd

	model       string // latest turn_context model outside the copy
	copiedModel string // latest turn_context model inside the copy
	settings    string // latest thread_settings_applied model, a fallback
	cwd         string // latest turn_context cwd outside the copy

	seenTotals map[Tokens]struct{}
	last       Tokens // the last counted cumulative total (zero before the first)
	prompts    map[Key]struct{}
	searches   map[Key]int // web searches without an id: how often each was seen
}

func newThread() *thread {
	return &thread{seenTotals: map[Tokens]struct{}{}, prompts: map[Key]struct{}{}, searches: map[Key]int{}}
}

// observe takes what an entry says about the thread: its identity, the
// model and the working directory. It returns the session_meta that opens
// the file, when e is it (later ones are resumes or a fork's copy).
func (t *thread) observe(e *Entry) (first *Meta) {
	switch {
	case e.Type == "session_meta" && e.Meta != nil:
		if t.sawMeta {
			return nil
		}
		m := e.Meta
		t.sawMeta = true
		t.id, t.forkedFrom, t.parentID = strings.Clone(m.ID), strings.Clone(m.ForkedFromID), strings.Clone(m.ParentThreadID)
		if t.parentID == "" {
			t.parentID = t.forkedFrom
		}
		t.metaCwd = strings.Clone(m.Cwd)
		return m
	case e.Type == "turn_context":
		if e.Copied {
			if e.Model != t.copiedModel {
				t.copiedModel = strings.Clone(e.Model)
			}
			return nil
		}
		if e.Model != "" && e.Model != t.model {
			t.model = strings.Clone(e.Model)
		}
		if e.Cwd != "" && e.Cwd != t.cwd {
			t.cwd = strings.Clone(e.Cwd)
		}
	case e.Item == "thread_settings_applied" && !e.Copied:
		if e.Model != "" && e.Model != t.settings {
			t.settings = strings.Clone(e.Model)
		}
	}
	return nil
}

// namespace is the thread whose counter and calls an entry shows: the
// parent's for the copied prefix of a fork, the file's own otherwise.
func (t *thread) namespace(copied bool) string {
	if !copied {
		return t.id
	}
	if t.forkedFrom != "" {
		return t.forkedFrom
	}
	return t.parentID
}

// responseModel is the model a response at this point is attributed to: the
// latest turn_context before it (§4.2), the copy's own inside the prefix.
func (t *thread) responseModel(copied bool) string {
	if copied {
		return t.copiedModel
	}
	if t.model == "" {
		return t.settings
	}
	return t.model
}

// group is the identity of the model response an item at this point belongs
// to: the thread whose counter will count it and the last cumulative total
// counted before it. Every item of one response (reasoning, messages, calls)
// and the token_count that ends it share it, and a fork's copy of a parent's
// response has the parent's thread and the parent's totals, so it shares
// the parent's group too.
func (t *thread) group(copied bool) Key {
	h := newKeyHash().str("response").str(t.namespace(copied))
	l := t.last
	return Key(h.int(l.Input).int(l.Cached).int(l.Output).int(l.Reasoning).int(l.Total))
}

// count applies §14.5 to a token_count entry: skip info:null, skip an
// all-zero total (a context estimate before a rollback), skip a total equal
// to any earlier total of the file (re-emissions, with the same or a
// different last, and the copied prefix's totals), and count the
// last_token_usage of the rest. Restarted counters and a review-mode second
// counter write totals new to the file, so they count. ok is false for an
// event that does not count; key is the response's group.
func (t *thread) count(e *Entry) (key Key, u Usage, ok bool) {
	if e.Tokens == nil {
		return 0, Usage{}, false
	}
	total := e.Tokens.Total
	total.CacheWrite = 0 // the five fields of §14.5 decide a repeat
	if total.zero() {
		return 0, Usage{}, false
	}
	if _, seen := t.seenTotals[total]; seen {
		return 0, Usage{}, false
	}
	t.seenTotals[total] = struct{}{}
	key = t.group(e.Copied)
	t.last = total
	return key, UsageOf(e.Tokens.Last), true
}

// newPrompt reports whether a prompt outside the copy counts (§14.6): two
// with the same time and text are the /review double, counted once.
func (t *thread) newPrompt(e *Entry) bool {
	if e.Copied {
		return false
	}
	k := Key(newKeyHash().int(e.Time).str(e.Text))
	if _, dup := t.prompts[k]; dup {
		return false
	}
	t.prompts[k] = struct{}{}
	return true
}

// callKey identifies a call across files: its call_id, or for a web search
// without one, its query and how many times the thread searched it before.
// Either is the same in a fork's copy as in the parent.
func (t *thread) callKey(e *Entry) Key {
	if e.CallID != "" {
		return hashKey("call", e.CallID)
	}
	h := newKeyHash().str(t.namespace(e.Copied)).str(e.Tool).str(e.Text)
	n := t.searches[Key(h)]
	t.searches[Key(h)] = n + 1
	return Key(h.int(int64(n)))
}

// fileCwd is the folder a call's relative patch paths are joined to: the
// turn's cwd, or the session's for the copied prefix and before any turn.
func (t *thread) fileCwd(copied bool) string {
	if t.cwd == "" || copied {
		return t.metaCwd
	}
	return t.cwd
}
