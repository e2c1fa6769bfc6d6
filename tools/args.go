package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/agent-activity/agent-activity/logs"
)

// The argument groups several tools share. Each is embedded in a tool's
// argument struct, so a parameter's name and description are written once;
// encoding/json and the schema reflector both flatten embedded structs.

// RepoArg filters by repository.
type RepoArg struct {
	Repo string `json:"repo,omitempty" jsonschema:"case-insensitive substring of the repo name or cwd"`
}

// AgentArg filters by the agent whose history a session is.
type AgentArg struct {
	Agent string `json:"agent,omitempty" jsonschema:"only sessions of this agent: claude-code or codex"`
}

// filter keeps the sessions of the agent, or all of them without one.
func (a AgentArg) filter(ss []*logs.Session) []*logs.Session {
	if a.Agent == "" {
		return ss
	}
	var out []*logs.Session
	for _, s := range ss {
		if logs.MatchAgent(s, a.Agent) {
			out = append(out, s)
		}
	}
	return out
}

// MachineArg narrows any tool to the history of one machine. Every tool's
// arguments embed it; define hands its value to the snapshot the handler
// reads (Deps.snapshot), so no handler can forget it.
type MachineArg struct {
	Machine string `json:"machine,omitempty" jsonschema:"limit to one machine's history: the label of its AGENT_ACTIVITY_LOG_ROOT entry (laptop=~/.claude/projects), local for an unlabelled root; default every machine"`
}

func (a MachineArg) machineFilter() string { return a.Machine }

// machineScoped is an argument struct that embeds MachineArg.
type machineScoped interface{ machineFilter() string }

// SinceArg is the start of a time window.
type SinceArg struct {
	Since string `json:"since,omitempty" jsonschema:"RFC 3339, a date, today, yesterday, or a duration back from now (24h, 7d)"`
}

// TimeRangeArgs bound a query in time.
type TimeRangeArgs struct {
	SinceArg
	Until string `json:"until,omitempty" jsonschema:"same forms as since; a date means through that day"`
}

// SessionFilterArg narrows a query over many sessions to one.
type SessionFilterArg struct {
	Session string `json:"session,omitempty" jsonschema:"limit to one session: id, unique prefix or \"latest\""`
}

// CwdArg tells which live session is the caller's own.
type CwdArg struct {
	Cwd string `json:"cwd,omitempty" jsonschema:"the caller's working directory, to tell which live session is the caller's own"`
}

// SessionArgs name the one session a tool reads, "latest" skipping the
// caller's own unless asked.
type SessionArgs struct {
	Session        string `json:"session" jsonschema:"session id, a unique prefix of at least 4 characters, or \"latest\" (the most recently active session other than the current one)"`
	IncludeCurrent bool   `json:"include_current,omitempty" jsonschema:"let \"latest\" pick the caller's own live session"`
	CwdArg
}

func (a SessionArgs) resolveOptions() logs.ResolveOptions {
	return logs.ResolveOptions{IncludeCurrent: a.IncludeCurrent, Cwd: a.Cwd}
}

// DetailArg asks for the full breakdown.
type DetailArg struct {
	Detail bool `json:"detail,omitempty" jsonschema:"true for the full breakdown (usage split by thread and by model, every token field) and answers of up to 40000 characters instead of 12000"`
}

func (d *DetailArg) detailArg() *DetailArg { return d }

// detailed is an argument struct that embeds DetailArg.
type detailed interface{ detailArg() *DetailArg }

// bindStrict decodes arguments, rejecting unknown fields and wrong types with
// invalid_argument naming the field.
func bindStrict(raw []byte, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return logs.InvalidArgument("arguments", "arguments must be a JSON object with the documented fields")
		case errors.As(err, &te):
			// The path runs through embedded argument groups
			// (SessionArgs.CwdArg.cwd); arguments are flat, so its last
			// element is the argument.
			f := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
			return logs.InvalidArgument(f, "argument %q must be of type %s", f, jsonType(te.Type.Kind().String()))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			if f == "" {
				return logs.InvalidArgument("arguments", "an argument has an empty name")
			}
			return logs.InvalidArgument(f, "unknown argument %q", f)
		}
		return logs.InvalidArgument("arguments", "arguments must be a JSON object with the documented fields")
	}
	return nil
}

func jsonType(kind string) string {
	switch kind {
	case "int", "int64", "float64":
		return "number"
	case "ptr":
		return "number"
	case "slice":
		return "array"
	case "struct", "map":
		return "object"
	}
	return kind
}

// bound is an integer range and default of one optional argument, checked
// and filled in by define and written into the input schema. A bound
// without a default is a position (tail_agent_log's offset), not a size.
type bound struct {
	name     string
	min, max int
	def      int
	noDef    bool
	field    func(a any) **int
}

// intBound declares the range min..max and the default def of the argument
// name, held in the field that field returns.
func intBound[A any](name string, min, max, def int, field func(*A) **int) bound {
	return bound{name: name, min: min, max: max, def: def, field: func(a any) **int { return field(a.(*A)) }}
}

// intRange declares the range min..max of the argument name, which stays
// absent when not given.
func intRange[A any](name string, min, max int, field func(*A) **int) bound {
	b := intBound(name, min, max, 0, field)
	b.noDef = true
	return b
}

// sizes reports whether the bound is a page size, whose explicit value asks
// for a larger answer budget.
func (b bound) sizes() bool { return !b.noDef }

// apply checks the argument's range, or sets it to the default when absent.
func (b bound) apply(a any) error {
	p := b.field(a)
	if *p == nil {
		if b.noDef {
			return nil
		}
		def := b.def
		*p = &def
		return nil
	}
	if v := **p; v < b.min || v > b.max {
		return logs.InvalidArgument(b.name, "%s must be between %d and %d; got %d", b.name, b.min, b.max, v)
	}
	return nil
}

func applyBounds(schema json.RawMessage, bounds []bound) json.RawMessage {
	if len(bounds) == 0 || len(schema) == 0 {
		return schema
	}
	var m map[string]any
	if json.Unmarshal(schema, &m) != nil {
		return schema
	}
	props, _ := m["properties"].(map[string]any)
	for _, b := range bounds {
		if p, ok := props[b.name].(map[string]any); ok {
			p["minimum"], p["maximum"] = b.min, b.max
			if !b.noDef {
				p["default"] = b.def
			}
			p["type"] = "integer"
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return schema
	}
	return out
}
