package logs

import (
	"path/filepath"
	"testing"
)

// TestRemoteFileSystems: a local folder can be watched; a path that cannot
// be statted cannot (the sweep decides for it).
func TestRemoteFileSystems(t *testing.T) {
	if remote(t.TempDir()) {
		t.Errorf("a local temp folder counts as remote")
	}
	if !remote(filepath.Join(t.TempDir(), "gone")) {
		t.Errorf("a folder that is not there is trusted to the watcher")
	}
}
