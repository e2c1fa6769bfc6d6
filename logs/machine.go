package logs

import (
	"sort"
	"strings"

	"github.com/agent-activity/agent-activity/transcript"
)

// LocalMachine is the machine of a root configured without a label.
const LocalMachine = "local"

// machineOf names the machine a root holds.
func machineOf(r *transcript.Root) string {
	if r == nil || r.Label == "" {
		return LocalMachine
	}
	return r.Label
}

// ValidMachineLabel reports whether s can label a log root: 1 to 64 ASCII
// letters, digits, '-' and '_'. Nothing else is taken for a label, so a
// Windows path (C:\...) or a path holding '=' is never mistaken for one.
func ValidMachineLabel(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Machines lists the machines of the configured roots, sorted, each once.
func (snap *Snapshot) Machines() []string {
	var out []string
	for _, r := range snap.Roots {
		if !containsFold(out, r.Machine) {
			out = append(out, r.Machine)
		}
	}
	sort.Strings(out)
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// OnMachine narrows the snapshot to one machine's roots, files and sessions:
// every query on the result answers for that machine alone. A response keeps
// the session it was attributed to across the whole history, so a message
// copied from another machine counts where it first appeared, and the
// machines' answers add up to the whole history's. machine "" returns snap
// itself; a machine no root is labelled with is invalid_argument naming the
// machines there are. Views are kept per snapshot, so their reports are
// remembered like the whole snapshot's.
func (snap *Snapshot) OnMachine(machine string) (*Snapshot, error) {
	machine = strings.TrimSpace(machine)
	if machine == "" {
		return snap, nil
	}
	known := snap.Machines()
	if !containsFold(known, machine) {
		return nil, InvalidArgument("machine", "machine %q is not configured; the machines are %s (labels of AGENT_ACTIVITY_LOG_ROOT entries, local for an unlabelled root)",
			clipArg(machine), strings.Join(known, ", "))
	}
	if len(known) == 1 {
		return snap, nil
	}
	key := strings.ToLower(machine)
	snap.memoMu.Lock()
	defer snap.memoMu.Unlock()
	if v := snap.machines[key]; v != nil {
		return v, nil
	}
	v := &Snapshot{Pricing: snap.Pricing, cfg: snap.cfg}
	for _, r := range snap.Roots {
		if strings.EqualFold(r.Machine, machine) {
			v.Roots = append(v.Roots, r)
		}
	}
	for _, f := range snap.Files {
		if strings.EqualFold(machineOf(f.Root), machine) {
			v.Files = append(v.Files, f)
		}
	}
	for _, s := range snap.Sessions {
		if strings.EqualFold(s.Machine, machine) {
			v.Sessions = append(v.Sessions, s)
		}
	}
	if snap.machines == nil {
		snap.machines = map[string]*Snapshot{}
	}
	snap.machines[key] = v
	return v, nil
}

// sameIDMachines lists the machines of sessions that all share one id (the
// same session synced from several machines), or "" when the ids differ or
// the machines do not: then more characters of the id tell them apart.
func sameIDMachines(ss []*Session) string {
	var machines []string
	for _, s := range ss {
		if !strings.EqualFold(s.ID, ss[0].ID) {
			return ""
		}
		if !containsFold(machines, s.Machine) {
			machines = append(machines, s.Machine)
		}
	}
	if len(machines) < 2 {
		return ""
	}
	sort.Strings(machines)
	return strings.Join(machines, ", ")
}
