//go:build unix

package codex

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where a rollout belongs is refused at once instead of hanging.
func TestFIFORefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "01", "02")
	mkdirAll(t, dir)
	fifo := filepath.Join(dir, rolloutName)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Summarize(context.Background(), fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("a FIFO was read as a rollout")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO hung")
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(dir))))
	if files := discoverFiles(root); len(files) != 0 {
		t.Errorf("discover listed a FIFO: %v", files)
	}
}
