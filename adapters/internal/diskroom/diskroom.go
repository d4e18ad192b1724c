// Package diskroom says whether a folder's disk has room for work, for the
// readiness probe: the stores fail their writes with ENOSPC or SQLITE_FULL
// when it has none, and a probe that only reads would stay ready.
package diskroom

import (
	"fmt"
	"syscall"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Min is the free space below which a disk counts as full: room for the
// largest upload (50 MB) and what its job writes beside it.
const Min = 64 << 20

// Check fails with *ports.Unavailable naming what (e.g. "the document
// store") when the disk holding dir has less than Min bytes free for an
// unprivileged writer.
func Check(what, dir string) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	free := st.Bavail * uint64(st.Bsize)
	if free < Min {
		return &ports.Unavailable{What: what, Reason: fmt.Sprintf("is full (%d MB free on its disk)", free>>20),
			RetryAfter: time.Minute}
	}
	return nil
}
