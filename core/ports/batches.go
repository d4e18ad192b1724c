package ports

import (
	"context"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// Batches finds jobs by what a submission made of them: the jobs of one
// batch (several targets, or the documents of a .zip), and held jobs whose
// hold ran out. The SQL store implements it beside JobStore.
type Batches interface {
	// BatchJobs returns the jobs of an account's batch in the order they
	// were made; none for an unknown batch or another account's.
	BatchJobs(ctx context.Context, accountID, batchID string) ([]*job.Job, error)
	// HeldBefore lists pending jobs still held whose hold ends before t.
	HeldBefore(ctx context.Context, t time.Time) ([]*job.Job, error)
}

// Throughput is an engine's measured speed.
type Throughput struct {
	CharsPerSecond float64 // characters sent per second of a call
	Calls          int64   // calls measured
}

// EngineThroughput keeps what the engines' calls measured, so that a quote
// can estimate how long a translation takes on this server.
type EngineThroughput interface {
	// RecordThroughput adds one successful call of engine: chars sent in d.
	RecordThroughput(ctx context.Context, engine string, chars int, d time.Duration) error
	// Throughputs returns every measured engine's throughput by name.
	Throughputs(ctx context.Context) (map[string]Throughput, error)
}
