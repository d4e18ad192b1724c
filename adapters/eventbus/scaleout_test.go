package eventbus

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// counter records which bus handled which job.
type counter struct {
	mu  sync.Mutex
	per map[string]map[string]int // bus -> job -> times
}

func (c *counter) handler(bus string) ports.EventHandler {
	return func(_ context.Context, e ports.JobEvent) error {
		time.Sleep(time.Millisecond) // a little work, so both workers get a share
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.per == nil {
			c.per = map[string]map[string]int{}
		}
		if c.per[bus] == nil {
			c.per[bus] = map[string]int{}
		}
		c.per[bus][e.JobID]++
		return nil
	}
}

// total returns how many distinct jobs were handled and how many
// handlings were duplicates.
func (c *counter) total() (distinct, dups int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]int{}
	for _, jobs := range c.per {
		for id, n := range jobs {
			seen[id] += n
		}
	}
	for _, n := range seen {
		dups += n - 1
	}
	return len(seen), dups
}

// TestScaleOutConsumerGroups: three processes' worth of buses on one
// NATS server. Two workers in group "convert" split the events without
// duplicates; a bus in group "audit" sees every event.
func TestScaleOutConsumerGroups(t *testing.T) {
	const events = 300
	server := newTestBus(t, t.TempDir()) // embedded server; also the API side publishing
	start(t, server)

	var convert, audit counter
	workers := make([]*Bus, 2)
	for i := range workers {
		b, err := NewNATS(server.URL(), quiet, fastRetry...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		b.HandleConcurrent("convert", ports.TopicAccepted, 2, convert.handler(fmt.Sprint("worker", i)))
		workers[i] = b
	}
	auditor, err := NewNATS(server.URL(), quiet, fastRetry...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { auditor.Close() })
	auditor.Handle("audit", ports.TopicAccepted, audit.handler("auditor"))
	for _, b := range append(workers, auditor) {
		start(t, b)
	}

	for i := range events {
		publish(t, server, ports.TopicAccepted, fmt.Sprintf("job-%03d", i))
	}
	waitFor(t, "convert group to handle every event", 30*time.Second, func() bool { n, _ := convert.total(); return n == events })
	waitFor(t, "audit group to handle every event", 30*time.Second, func() bool { n, _ := audit.total(); return n == events })
	time.Sleep(200 * time.Millisecond) // let any duplicate show up

	if _, dups := convert.total(); dups != 0 {
		t.Fatalf("convert group handled %d events twice", dups)
	}
	if _, dups := audit.total(); dups != 0 {
		t.Fatalf("audit group handled %d events twice", dups)
	}
	convert.mu.Lock()
	defer convert.mu.Unlock()
	w0, w1 := len(convert.per["worker0"]), len(convert.per["worker1"])
	if w0 == 0 || w1 == 0 {
		t.Fatalf("work not shared: worker0 %d, worker1 %d", w0, w1)
	}
	t.Logf("convert group split %d/%d; audit saw %d", w0, w1, events)
}
