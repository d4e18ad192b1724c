package pipeline

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// Units past the queue's budget wait in a file and come back in order,
// the queue keeps working after the file drained, and the file goes with
// the queue.
func TestQueueSpillsPastItsBudgetInOrder(t *testing.T) {
	dir := t.TempDir()
	q := newUnitQueue(dir)
	q.budget = 2000
	ctx := context.Background()
	next := 0
	want := 0
	pop := func(n int) {
		t.Helper()
		for range n {
			u, err := q.pop(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if u.ID != tenWordUnit(want).ID || u.Segments[0].Source != tenWordUnit(want).Segments[0].Source {
				t.Fatalf("popped %q, want unit %d", u.ID, want)
			}
			want++
		}
	}
	push := func(n int) {
		t.Helper()
		for range n {
			if err := q.push([]segment.Unit{tenWordUnit(next)}); err != nil {
				t.Fatal(err)
			}
			next++
		}
	}
	push(100)
	if q.spill == nil || q.spill.unread == 0 || len(q.mem) > 20 {
		t.Fatalf("%d units in memory, spill %+v: the budget was not kept", len(q.mem), q.spill)
	}
	pop(60)
	push(50) // behind the spilled ones
	pop(90)
	push(10) // the file drained: back in memory
	q.close(nil)
	pop(10)
	if _, err := q.pop(ctx); err != io.EOF {
		t.Fatalf("after the last unit: %v", err)
	}
	q.release()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left in the spool directory: %v", ents)
	}
}
