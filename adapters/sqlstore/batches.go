package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

var (
	_ ports.Batches          = (*Store)(nil)
	_ ports.EngineThroughput = (*Store)(nil)
)

// BatchJobs reads a batch's jobs over the jobs_batch index, oldest first.
func (s *Store) BatchJobs(ctx context.Context, accountID, batchID string) ([]*job.Job, error) {
	if batchID == "" {
		return nil, nil
	}
	return s.selectJobs(ctx, jobSelect+" WHERE account_id = ? AND batch_id = ? ORDER BY created_at, id", accountID, batchID)
}

// HeldBefore lists held pending jobs whose hold ends before t.
func (s *Store) HeldBefore(ctx context.Context, t time.Time) ([]*job.Job, error) {
	return s.selectJobs(ctx, jobSelect+" WHERE status = ? AND held_until IS NOT NULL AND held_until < ? ORDER BY held_until, id",
		string(job.Pending), ts(t))
}

// throughputDecay weighs what was measured before each new call, so the
// figure follows an engine that got faster or slower (after about 50 calls
// the old measurements count for a third).
const throughputDecay = 0.98

// RecordThroughput adds one call to the engine's decayed sums.
func (s *Store) RecordThroughput(ctx context.Context, engine string, chars int, d time.Duration) error {
	q := fmt.Sprintf(`INSERT INTO engine_throughput (engine, chars, seconds, calls, updated_at) VALUES (?, ?, ?, 1, ?)
		ON CONFLICT (engine) DO UPDATE SET chars = engine_throughput.chars * %[1]g + excluded.chars,
		seconds = engine_throughput.seconds * %[1]g + excluded.seconds, calls = engine_throughput.calls + 1,
		updated_at = excluded.updated_at`, throughputDecay)
	_, err := s.w.ExecContext(ctx, s.w.Rebind(q), engine, float64(chars), d.Seconds(), ts(s.clock()))
	if err != nil {
		return fmt.Errorf("sqlstore: record throughput of %s: %w", engine, err)
	}
	return nil
}

// Throughputs reads every measured engine's characters per second.
func (s *Store) Throughputs(ctx context.Context) (map[string]ports.Throughput, error) {
	var rows []struct {
		Engine  string  `db:"engine"`
		Chars   float64 `db:"chars"`
		Seconds float64 `db:"seconds"`
		Calls   int64   `db:"calls"`
	}
	if err := s.r.SelectContext(ctx, &rows, "SELECT engine, chars, seconds, calls FROM engine_throughput"); err != nil {
		return nil, fmt.Errorf("sqlstore: read throughput: %w", err)
	}
	out := make(map[string]ports.Throughput, len(rows))
	for _, r := range rows {
		if r.Seconds > 0 {
			out[r.Engine] = ports.Throughput{CharsPerSecond: r.Chars / r.Seconds, Calls: r.Calls}
		}
	}
	return out, nil
}
