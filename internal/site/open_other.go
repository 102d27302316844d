//go:build !unix

package site

import "os"

// openFlags: outside Unix there are no FIFOs under a directory to wait on.
const openFlags = os.O_RDONLY
