package pool

import (
	"time"

	"golang.org/x/sys/unix"
)

// limitCPU moves pid's soft RLIMIT_CPU to at, a total of its processor
// time: the kernel sends SIGXCPU there. The hard limit is left as it is,
// so the next conversion on the same instance can move the soft one
// again (raising a hard limit needs privilege).
func limitCPU(pid int, at time.Duration) {
	var old unix.Rlimit
	if unix.Prlimit(pid, unix.RLIMIT_CPU, nil, &old) != nil {
		return
	}
	soft := uint64((at + time.Second - 1) / time.Second)
	if soft > old.Max {
		soft = old.Max
	}
	unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: soft, Max: old.Max}, nil)
}

// limitData caps pid's data segment (RLIMIT_DATA: heap and private
// writable mappings, what a document's content grows) at bytes; an
// allocation past it fails. It works without privilege and without
// cgroups, in any container.
func limitData(pid int, bytes int64) error {
	lim := &unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return unix.Prlimit(pid, unix.RLIMIT_DATA, lim, nil)
}
