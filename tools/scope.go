package tools

import (
	"context"

	"github.com/agent-activity/agent-activity/logs"
)

// snapshot refreshes the store, reporting progress when the client asked,
// and narrows it to the machine the arguments name (see MachineArg).
func (d Deps) snapshot(ctx context.Context) (*logs.Snapshot, error) {
	snap, err := d.Store.Snapshot(ctx, progressFrom(ctx))
	if err != nil {
		return nil, err
	}
	return snap.OnMachine(machineFrom(ctx))
}

type machineKey struct{}

// withMachine carries a call's machine argument to Deps.snapshot.
func withMachine(ctx context.Context, machine string) context.Context {
	if machine == "" {
		return ctx
	}
	return context.WithValue(ctx, machineKey{}, machine)
}

func machineFrom(ctx context.Context) string {
	m, _ := ctx.Value(machineKey{}).(string)
	return m
}

// window refreshes the snapshot and parses a since/until pair against its
// clock and time zone.
func (d Deps) window(ctx context.Context, since, until string) (*logs.Snapshot, logs.TimeRange, error) {
	snap, err := d.snapshot(ctx)
	if err != nil {
		return nil, logs.TimeRange{}, err
	}
	tr, err := rangeAt(snap, since, until)
	return snap, tr, err
}

// rangeAt parses a since/until pair against snap's clock and time zone.
func rangeAt(snap *logs.Snapshot, since, until string) (logs.TimeRange, error) {
	return logs.ParseTimeRange(since, until, snap.Now(), snap.Config().Location)
}

// resolve refreshes the snapshot and resolves a session argument.
func (d Deps) resolve(ctx context.Context, arg string, opt logs.ResolveOptions) (*logs.Snapshot, *logs.Session, error) {
	if err := logs.CheckSessionArg(arg); err != nil {
		return nil, nil, err
	}
	snap, err := d.snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	if snap.RootsMissing() {
		return nil, nil, &logs.Error{Code: logs.CodeLogRootMissing, Message: "the log root does not exist: " + rootsString(snap) + "; set AGENT_ACTIVITY_LOG_ROOT"}
	}
	s, err := snap.Resolve(arg, opt)
	return snap, s, err
}

// scope resolves the common filters: an optional session, a repo, a time range.
func (d Deps) scope(ctx context.Context, session, repo, since, until string) (*logs.Snapshot, []*logs.Session, logs.TimeRange, error) {
	if session != "" {
		if err := logs.CheckSessionArg(session); err != nil {
			return nil, nil, logs.TimeRange{}, err
		}
	}
	snap, tr, err := d.window(ctx, since, until)
	if err != nil {
		return nil, nil, tr, err
	}
	if session != "" {
		s, err := snap.Resolve(session, logs.ResolveOptions{IncludeCurrent: true})
		if err != nil {
			return nil, nil, tr, err
		}
		if !logs.MatchRepo(s, repo) {
			return snap, nil, tr, nil
		}
		return snap, []*logs.Session{s}, tr, nil
	}
	var out []*logs.Session
	for _, s := range snap.Sessions {
		if logs.MatchRepo(s, repo) {
			out = append(out, s)
		}
	}
	return snap, out, tr, nil
}
