//go:build unix

package site

import (
	"os"
	"syscall"
)

// openFlags opens without waiting: a FIFO put in a file's place opens at once (and is then
// refused) instead of waiting for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
