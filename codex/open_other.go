//go:build !unix

package codex

import "os"

// openFlags: Windows has no FIFOs in the file tree to guard against.
const openFlags = os.O_RDONLY
