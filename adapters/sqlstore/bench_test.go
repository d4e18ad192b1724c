package sqlstore

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// Run with: go test -run '^$' -bench . ./adapters/sqlstore
// Each benchmark runs on SQLite and, when available, PostgreSQL; the
// parallel ones use GOMAXPROCS goroutines (-cpu 8 for 8 writers).

func forBackends(b *testing.B, fn func(b *testing.B, s *Store)) {
	b.Run("sqlite", func(b *testing.B) {
		s := newStore(b, sqliteBackend)
		b.ResetTimer()
		fn(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s := newStore(b, postgresBackend(b)) // starts the server the first time
		b.ResetTimer()
		fn(b, s)
	})
}

var benchIDs atomic.Int64

// BenchmarkJobLifecycle: one create and the three updates of a job's life
// (start, a stage, complete) per op, from parallel goroutines.
func BenchmarkJobLifecycle(b *testing.B) {
	forBackends(b, func(b *testing.B, s *Store) {
		now := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				id := fmt.Sprintf("job-%d", benchIDs.Add(1))
				if err := s.CreateJob(ctx, fullJob(id, "acc", now)); err != nil {
					b.Fatal(err)
				}
				for _, step := range []func(j *job.Job) error{
					func(j *job.Job) error { return j.Start(now) },
					func(j *job.Job) error { return j.Advance(job.StageTranslated, now) },
					func(j *job.Job) error { return j.Complete(now) },
				} {
					if _, err := s.UpdateJob(ctx, id, step); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	})
}

// BenchmarkGetJob: status polls, the most frequent read.
func BenchmarkGetJob(b *testing.B) {
	forBackends(b, func(b *testing.B, s *Store) {
		for i := 0; i < 100; i++ {
			if err := s.CreateJob(ctx, fullJob(fmt.Sprintf("g%d", i), "acc", time.Now())); err != nil {
				b.Fatal(err)
			}
		}
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := s.GetJob(ctx, fmt.Sprintf("g%d", i%100)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	})
}

// BenchmarkReserve: parallel reservations against one account's limit
// (the contended row), each a new job.
func BenchmarkReserve(b *testing.B) {
	forBackends(b, func(b *testing.B, s *Store) {
		limit := int64(1 << 62)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := s.Reserve(ctx, "acc", "2026-03", fmt.Sprintf("r-%d", benchIDs.Add(1)), 100, &limit); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkAllow: the rate-limit check every request makes.
func BenchmarkAllow(b *testing.B) {
	forBackends(b, func(b *testing.B, s *Store) {
		b.RunParallel(func(pb *testing.PB) {
			i := benchIDs.Add(1)
			for pb.Next() {
				if _, _, err := s.Allow(ctx, fmt.Sprintf("acct:%d", i%16), 1<<30); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
