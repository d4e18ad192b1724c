package eventbus

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// BenchmarkPublishToHandle measures events/s from Publish to the end of
// a handler on the embedded bus, with the handler doing no work.
func BenchmarkPublishToHandle(b *testing.B) {
	for _, bc := range []struct {
		name        string
		concurrency int
		fsync       bool
	}{
		{"c1", 1, false},
		{"c4", 4, false},
		{"c4-fsync", 4, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bus, err := NewEmbedded(b.TempDir(), quiet, WithConcurrency(bc.concurrency), WithFsync(bc.fsync))
			if err != nil {
				b.Fatal(err)
			}
			defer bus.Close()
			var handled atomic.Int64
			bus.Handle("bench", ports.TopicAccepted, func(context.Context, ports.JobEvent) error {
				handled.Add(1)
				return nil
			})
			if err := bus.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				if err := bus.Publish(ctx, ports.TopicAccepted, ports.JobEvent{JobID: fmt.Sprint(i)}); err != nil {
					b.Fatal(err)
				}
			}
			for handled.Load() < int64(b.N) {
				time.Sleep(time.Millisecond)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkPublish measures synchronous publishing alone.
func BenchmarkPublish(b *testing.B) {
	for _, fsync := range []bool{false, true} {
		b.Run(fmt.Sprintf("fsync=%v", fsync), func(b *testing.B) {
			bus, err := NewEmbedded(b.TempDir(), quiet, WithFsync(fsync))
			if err != nil {
				b.Fatal(err)
			}
			defer bus.Close()
			ctx := context.Background()
			b.ResetTimer()
			for i := range b.N {
				if err := bus.Publish(ctx, ports.TopicAccepted, ports.JobEvent{JobID: fmt.Sprint(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
