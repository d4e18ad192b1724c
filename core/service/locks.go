package service

import (
	"hash/fnv"
	"sync"
)

// locks serialise work on one key (a job's revisions, its renders) within
// a process. A fixed set picked by the key's hash keeps memory flat
// however many jobs pass: two keys may share a lock and then only wait
// for each other. Work across processes is kept apart by the store
// (a revision's compare-and-swap), not by these.
type locks [64]sync.Mutex

func (l *locks) lock(key string) (unlock func()) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	mu := &l[h.Sum32()%uint32(len(l))]
	mu.Lock()
	return mu.Unlock
}
