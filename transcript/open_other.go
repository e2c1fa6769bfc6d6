//go:build !unix

package transcript

import "os"

// openReadOnly opens read-only; non-Unix systems have no FIFO in the tree to
// block on.
func openReadOnly(path string) (*os.File, error) { return os.OpenFile(path, os.O_RDONLY, 0) }

// noFollow: no O_NOFOLLOW here; every element is checked before the open.
const noFollow = false

func openNoFollow(path string) (*os.File, error) { return openReadOnly(path) }
