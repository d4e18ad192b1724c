package pipeline

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// unitQueue carries units in order between two steps of a job's pass
// (extraction to translation, translation to the render) without ever
// blocking the step that pushes: the render cannot start before the read
// has seen the whole document, and the read must not wait for it. Up to a
// budget units wait in memory; past it they are spilled to a temporary
// file and read back in order, so a huge document holds a bounded part of
// its text in memory. One goroutine pushes, one pops.
type unitQueue struct {
	dir    string // for the spill file; "" is the system's
	budget int    // bytes of units held in memory before spilling

	mu     sync.Mutex
	mem    []segment.Unit
	size   int // bytes of mem (estimated)
	closed bool
	err    error
	spill  *spill
	ready  chan struct{} // a token when something was pushed or the queue closed
}

// spill is the file units wait in past the budget.
type spill struct {
	f      *os.File
	w      *bufio.Writer
	enc    *json.Encoder
	r      *os.File
	dec    *json.Decoder
	unread int
}

// queueBudget is what one queue holds in memory before spilling.
const queueBudget = 16 << 20

func newUnitQueue(dir string) *unitQueue {
	return &unitQueue{dir: dir, budget: queueBudget, ready: make(chan struct{}, 1)}
}

// unitSize estimates the memory a unit holds.
func unitSize(u *segment.Unit) int {
	n := 64 + len(u.ID) + len(u.Part)
	for _, s := range u.Segments {
		n += 48 + len(s.ID) + len(s.Source) + len(s.Target)
	}
	for _, c := range u.Codes {
		n += 48 + len(c.Native) + len(c.Type)
	}
	return n
}

// push appends units; after close it does nothing.
func (q *unitQueue) push(units []segment.Unit) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil
	}
	for i := range units {
		u := &units[i]
		// In memory only while nothing waits in the file, so order holds.
		if (q.spill == nil || q.spill.unread == 0) && q.size < q.budget {
			q.mem = append(q.mem, *u)
			q.size += unitSize(u)
			continue
		}
		if err := q.toFile(u); err != nil {
			return err
		}
	}
	if q.spill != nil && q.spill.unread > 0 {
		if err := q.spill.w.Flush(); err != nil {
			return err
		}
	}
	q.wake()
	return nil
}

func (q *unitQueue) toFile(u *segment.Unit) error {
	if q.spill == nil {
		f, err := os.CreateTemp(q.dir, "dragoman-units-*.jsonl")
		if err != nil {
			return err
		}
		r, err := os.Open(f.Name())
		os.Remove(f.Name()) // gone with the queue, whatever happens
		if err != nil {
			f.Close()
			return err
		}
		w := bufio.NewWriterSize(f, 64<<10)
		q.spill = &spill{f: f, w: w, enc: json.NewEncoder(w), r: r, dec: json.NewDecoder(bufio.NewReaderSize(r, 64<<10))}
	}
	q.spill.unread++
	return q.spill.enc.Encode(u)
}

func (q *unitQueue) wake() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// close ends the queue: pop returns err (io.EOF for nil) once it is
// drained.
func (q *unitQueue) close(err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed, q.err = true, err
	}
	q.wake()
}

// pop takes the first unit, waiting for one; the queue's end (io.EOF, or
// the error it was closed with) once it is drained.
func (q *unitQueue) pop(ctx context.Context) (segment.Unit, error) {
	for {
		q.mu.Lock()
		u, ok, err := q.take()
		closed, cerr := q.closed, q.err
		q.mu.Unlock()
		if err != nil {
			return segment.Unit{}, err
		}
		if ok {
			return u, nil
		}
		if closed {
			if cerr == nil {
				cerr = io.EOF
			}
			return segment.Unit{}, cerr
		}
		select {
		case <-q.ready:
		case <-ctx.Done():
			return segment.Unit{}, ctx.Err()
		}
	}
}

// take is pop without waiting; the caller holds mu.
func (q *unitQueue) take() (segment.Unit, bool, error) {
	if len(q.mem) > 0 {
		u := q.mem[0]
		q.mem[0] = segment.Unit{}
		q.mem = q.mem[1:]
		q.size -= unitSize(&u)
		if len(q.mem) == 0 {
			q.mem, q.size = nil, 0
		}
		return u, true, nil
	}
	s := q.spill
	if s == nil || s.unread == 0 {
		return segment.Unit{}, false, nil
	}
	var u segment.Unit
	if err := s.dec.Decode(&u); err != nil {
		return u, false, err
	}
	s.unread--
	if s.unread == 0 { // drained: start the file afresh
		if err := s.reset(); err != nil {
			return u, false, err
		}
	}
	return u, true, nil
}

func (s *spill) reset() error {
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := s.r.Seek(0, io.SeekStart); err != nil {
		return err
	}
	s.w.Reset(s.f)
	s.dec = json.NewDecoder(bufio.NewReaderSize(s.r, 64<<10))
	return nil
}

// release removes the spill file; the queue is not used afterwards.
func (q *unitQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	if q.spill != nil {
		q.spill.f.Close()
		q.spill.r.Close()
		q.spill = nil
	}
	q.mem = nil
}
