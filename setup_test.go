package main

import (
	"testing"
	"time"
)

// TestOnlyTheServerWatches: a server keeps a change watcher; a one-shot
// command (call, export, doctor) reads once and must not set one up.
func TestOnlyTheServerWatches(t *testing.T) {
	t.Setenv("AGENT_ACTIVITY_LOG_ROOT", t.TempDir())
	t.Setenv("AGENT_ACTIVITY_CODEX_ROOT", "")
	for _, serving := range []bool{true, false} {
		a, err := setup(time.Now, serving)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.store.Config().Watch; got != serving {
			t.Errorf("setup(serving=%v): Watch %v", serving, got)
		}
		a.store.Close()
	}
}
