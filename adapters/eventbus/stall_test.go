package eventbus

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// chainTopics are the pipeline's hand-offs: to a worker, to its pass, to
// the finish, to the notifications.
var chainTopics = []ports.Topic{ports.TopicAccepted, ports.TopicConverted, ports.TopicLaidOut, ports.TopicCompleted}

// burn keeps a core busy and the garbage collector working for about d,
// as a stage on a large document does.
func burn(d time.Duration) {
	end := time.Now().Add(d)
	var keep [][]byte
	for time.Now().Before(end) {
		keep = append(keep, make([]byte, 64<<10))
		if len(keep) > 256 {
			keep = keep[:0]
		}
	}
}

// TestStageHandOffsNeverStall runs 100 jobs back to back through a chain
// of handlers wired as the pipeline's stages are (each handles one topic,
// works, publishes the next event, returns), two at once per handler as
// `serve --workers 2` runs them, with work that keeps the CPU and the
// garbage collector busy. It fails if any event waits more than 5 s
// between its publish and its handler: a lost or late delivery waits out
// the 30 s AckWait (issue 13: jobs idle 30–55 s before completed).
// DRAGOMAN_STALL_JOBS, DRAGOMAN_STALL_BURN_MS (longest work per stage,
// default 40 ms) and DRAGOMAN_STALL_HEAP (set: a 400 MB live heap) make it
// a longer stress run.
func TestStageHandOffsNeverStall(t *testing.T) {
	jobs := 100
	if v, err := strconv.Atoi(os.Getenv("DRAGOMAN_STALL_JOBS")); err == nil && v > 0 {
		jobs = v
	}
	burnMS := 40
	if v, err := strconv.Atoi(os.Getenv("DRAGOMAN_STALL_BURN_MS")); err == nil && v > 0 {
		burnMS = v
	}
	if os.Getenv("DRAGOMAN_STALL_HEAP") != "" {
		heap := make([][]byte, 0, 4000)
		for range 4000 {
			heap = append(heap, make([]byte, 100<<10))
		}
		defer func() { _ = len(heap) }()
	}
	b, err := NewEmbedded(t.TempDir(), quiet, WithConcurrency(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	var mu sync.Mutex
	published := map[string]time.Time{}
	var worst time.Duration
	var worstAt string
	done := make(chan string, jobs)
	for i, topic := range chainTopics {
		b.Handle(fmt.Sprintf("stage%d", i), topic, func(ctx context.Context, e ports.JobEvent) error {
			k := e.JobID + "/" + string(topic)
			mu.Lock()
			if wait := time.Since(published[k]); wait > worst {
				worst, worstAt = wait, k
			}
			mu.Unlock()
			if i == len(chainTopics)-1 {
				done <- e.JobID
				return nil
			}
			burn(time.Duration(rand.Intn(burnMS)) * time.Millisecond)
			next := chainTopics[i+1]
			mu.Lock()
			published[e.JobID+"/"+string(next)] = time.Now()
			mu.Unlock()
			return b.Publish(ctx, next, ports.JobEvent{EventID: e.JobID + "-" + string(next), JobID: e.JobID})
		})
	}
	start(t, b)
	for n := range jobs {
		id := fmt.Sprintf("job%d", n)
		mu.Lock()
		published[id+"/"+string(chainTopics[0])] = time.Now()
		mu.Unlock()
		t0 := time.Now()
		publish(t, b, chainTopics[0], id)
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("job %s not done after 2 min", id)
		}
		mu.Lock()
		if n%10 == 9 {
			t.Logf("job %d: %v (worst hand-off so far %v at %s)", n, time.Since(t0).Round(time.Millisecond), worst.Round(time.Millisecond), worstAt)
		}
		mu.Unlock()
	}
	if worst > 5*time.Second {
		t.Fatalf("a hand-off took %v (%s)", worst, worstAt)
	}
}
