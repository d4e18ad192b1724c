package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
)

// On SQLite, an engine answer is a job's checkpoint (core/translate writes
// it before its batch is done), and inserting it into the translation
// memory's indexes was most of a large job's work: every row lands on
// another page of three B-trees, each commit writes those pages again. So
// PutTM appends to a journal without indexes (tm_journal: a few pages a
// commit, durable all the same), and a merger moves the journal into the
// memory behind the jobs, thousands of rows a transaction, in key order.
// Until merged, entries answer GetTM from memory; a journal left by a
// process that died is merged when the database is next opened, before
// anything reads the memory.

// journalChunk is the most rows one merge transaction moves: a put waits
// for one chunk at most.
const journalChunk = 500

// The merger waits for the writes to go quiet (a job's translation ends)
// before it merges, unless the journal holds more than journalMax entries.
const (
	journalQuiet = 300 * time.Millisecond
	journalMax   = 200_000
)

type tmJournal struct {
	s       *Store
	mu      sync.Mutex
	pending map[tmKey]journaled
	shared  map[tmKey]journaled // the same by key without the account (for GetSharedTM)
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

type tmKey struct{ account, engine, mode, src, tgt, hash string }

// journaled is an entry waiting in the journal: its target and the
// journal row it is in.
type journaled struct {
	target string
	row    int64
}

// openJournal merges what a previous process left and starts the merger.
func openJournal(s *Store) (*tmJournal, error) {
	j := &tmJournal{s: s, pending: map[tmKey]journaled{}, shared: map[tmKey]journaled{}, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if err := j.mergeAll(context.Background(), false); err != nil {
		return nil, err
	}
	go j.run()
	return j, nil
}

// put appends entries to the journal and holds them until merged.
func (j *tmJournal) put(ctx context.Context, account, engine, mode, src, tgt string, hashes []string, entries map[string]string) error {
	now := ts(j.s.clock())
	var last int64
	err := j.s.inTx(ctx, func(tx *sqlx.Tx) error {
		for len(hashes) > 0 {
			n := min(len(hashes), tmChunk)
			var b strings.Builder
			b.WriteString("INSERT INTO tm_journal (account_id, engine, mode, src, tgt, hash, target, created_at) VALUES ")
			args := make([]any, 0, n*8)
			for i, h := range hashes[:n] {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, account, engine, mode, src, tgt, h, entries[h], now)
			}
			r, err := tx.ExecContext(ctx, b.String(), args...)
			if err != nil {
				return err
			}
			if last, err = r.LastInsertId(); err != nil {
				return err
			}
			hashes = hashes[n:]
		}
		return nil
	})
	if err != nil {
		return err
	}
	j.mu.Lock()
	for h, t := range entries {
		j.pending[tmKey{account, engine, mode, src, tgt, h}] = journaled{t, last}
		j.shared[tmKey{"", engine, mode, src, tgt, h}] = journaled{t, last}
	}
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
	return nil
}

// get is the journaled target of a key; shared: of any account (k's
// account is then ignored).
func (j *tmJournal) get(k tmKey, shared bool) (string, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	m := j.pending
	if shared {
		k.account, m = "", j.shared
	}
	e, ok := m[k]
	return e.target, ok
}

// run merges the journal once the writes go quiet (the merge is the
// expensive part, and it waits for the job that wrote to end), or when it
// holds too much.
func (j *tmJournal) run() {
	defer close(j.done)
	for {
		select {
		case <-j.stop:
			return
		case <-j.wake:
		}
	quiet:
		for {
			select {
			case <-j.stop:
				return
			case <-j.wake:
				j.mu.Lock()
				full := len(j.pending) > journalMax
				j.mu.Unlock()
				if full {
					break quiet
				}
			case <-time.After(journalQuiet):
				break quiet
			}
		}
		j.mu.Lock()
		full := len(j.pending) > journalMax
		j.mu.Unlock()
		// Left for the next merge, or the next open; a merge yields to new
		// writes unless the journal is full.
		_ = j.mergeAll(context.Background(), !full)
	}
}

// mergeAll moves every journaled row into the memory, a chunk a
// transaction; yield stops it between chunks when writes come again (the
// merger then waits for them to go quiet).
func (j *tmJournal) mergeAll(ctx context.Context, yield bool) error {
	for {
		if yield {
			select {
			case <-j.wake:
				select { // for run to see
				case j.wake <- struct{}{}:
				default:
				}
				return nil
			default:
			}
		}
		var upTo int64
		err := j.s.inTx(ctx, func(tx *sqlx.Tx) error {
			var first int64
			if err := tx.GetContext(ctx, &first, "SELECT COALESCE(MIN(id), 0) FROM tm_journal"); err != nil {
				return err
			}
			if first == 0 {
				return nil
			}
			upTo = first + journalChunk - 1
			if _, err := tx.ExecContext(ctx, `INSERT INTO translation_memory (account_id, engine, mode, src, tgt, hash, target, created_at)
				SELECT account_id, engine, mode, src, tgt, hash, target, created_at FROM tm_journal WHERE id <= ?
				ORDER BY account_id, engine, mode, src, tgt, hash, id
				ON CONFLICT (account_id, engine, mode, src, tgt, hash) DO UPDATE SET target = excluded.target`, upTo); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "DELETE FROM tm_journal WHERE id <= ?", upTo)
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlstore: merge the memory's journal: %w", err)
		}
		if upTo == 0 {
			return nil
		}
		j.mu.Lock()
		for _, m := range []map[tmKey]journaled{j.pending, j.shared} {
			for k, e := range m {
				if e.row <= upTo {
					delete(m, k)
				}
			}
		}
		j.mu.Unlock()
	}
}

// close stops the merger and merges what is left.
func (j *tmJournal) close() error {
	close(j.stop)
	<-j.done
	return j.mergeAll(context.Background(), false)
}
