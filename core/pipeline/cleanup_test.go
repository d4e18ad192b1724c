package pipeline

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// memBlobs keeps what is put, like a bucket.
type memBlobs struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (b *memBlobs) Put(_ context.Context, k string, r io.Reader) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[k] = data
	return int64(len(data)), nil
}
func (b *memBlobs) Open(_ context.Context, k string) (ports.Blob, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.m[k]
	if !ok {
		return nil, ports.ErrNotFound
	}
	return blob{bytes.NewReader(data)}, nil
}
func (b *memBlobs) Delete(_ context.Context, k string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, k)
	return nil
}
func (b *memBlobs) DeletePrefix(_ context.Context, prefix string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.m {
		if strings.HasPrefix(k, prefix) {
			delete(b.m, k)
		}
	}
	return nil
}
func (b *memBlobs) keys() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for k := range b.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// completingJobs checks, whenever a job is recorded completed, that its
// intermediate files are already gone: a job reads as completed only once
// nothing but its input, its output and what post-editing needs (the
// translated segments, job.SegmentsKey) is left.
type completingJobs struct {
	*jobs
	t     *testing.T
	blobs *memBlobs
}

func (s completingJobs) UpdateJob(ctx context.Context, id string, fn func(*job.Job) error) (*job.Job, error) {
	j, err := s.jobs.UpdateJob(ctx, id, fn)
	if err == nil && j.Status == job.Completed {
		if keys := s.blobs.keys(); len(keys) != 3 || keys[0] != key(j, "input") || keys[1] != job.OutputKey(j.ID) || keys[2] != job.SegmentsKey(j.ID) {
			s.t.Errorf("the job reads as completed while the bucket holds %v", keys)
		}
	}
	return j, err
}

func newCleanupPipeline(t *testing.T) (*Pipeline, *jobs, *memBlobs) {
	p, js, _, _ := newPipeline(t)
	mb := &memBlobs{m: map[string][]byte{}}
	p.Blobs = mb
	p.Jobs = completingJobs{jobs: js, t: t, blobs: mb}
	ctx := context.Background()
	js.UpdateJob(ctx, "j1", func(j *job.Job) error { return j.Start(clock{}.Now()) })
	j := mustJob(t, js)
	for _, k := range []string{"input", "segments.json", "translated.json", "assembled.docx"} {
		mb.Put(ctx, key(j, k), strings.NewReader(k))
	}
	mb.Put(ctx, job.OutputKey(j.ID), strings.NewReader("output"))
	return p, js, mb
}

// Finishing a job deletes its intermediate files before the job reads as
// completed, so a client (or a test) that sees "completed" finds only the
// input, the output and the translated segments the XLIFF export reads; a
// redelivered finish deletes them again.
func TestFinishLeavesOnlyTheOutput(t *testing.T) {
	p, js, mb := newCleanupPipeline(t)
	ctx := context.Background()
	js.UpdateJob(ctx, "j1", func(j *job.Job) error { return j.Advance(job.StageLaidOut, clock{}.Now()) })
	if err := p.finish(ctx, event()); err != nil {
		t.Fatal(err)
	}
	if j := mustJob(t, js); j.Status != job.Completed {
		t.Fatalf("job %s", j.Status)
	}
	if keys := mb.keys(); len(keys) != 3 || !slices.Contains(keys, job.OutputKey("j1")) || !slices.Contains(keys, key(mustJob(t, js), "input")) || !slices.Contains(keys, job.SegmentsKey("j1")) {
		t.Fatalf("after finish the bucket holds %v, want the input, the output and the translated segments", keys)
	}
}

// TestScaleOut's leak: a duplicate stage (a redelivery, or the other
// process recovering the job) still writing its file when the job
// completes elsewhere writes it after the finish cleaned up. The late
// stage must delete what it wrote once it finds the job completed.
func TestStageThatOutlivesItsCompletedJobLeavesNoFile(t *testing.T) {
	p, js, mb := newCleanupPipeline(t)
	ctx := context.Background()
	h := p.stage(job.StageAssembled, ports.TopicAssembled, func(ctx context.Context, j *job.Job) (func(*job.Job), error) {
		// Meanwhile the other process assembles, lays out and finishes.
		js.UpdateJob(ctx, "j1", func(j *job.Job) error { return j.Advance(job.StageLaidOut, clock{}.Now()) })
		if err := p.finish(ctx, event()); err != nil {
			t.Fatal(err)
		}
		// Then this one stores its (late) result.
		return nil, p.write(ctx, key(j, "assembled.docx"), func(w io.Writer) error {
			_, err := io.WriteString(w, "late")
			return err
		})
	})
	if err := h(ctx, event()); err != nil {
		t.Fatal(err)
	}
	if j := mustJob(t, js); j.Status != job.Completed {
		t.Fatalf("job %s", j.Status)
	}
	if keys := mb.keys(); len(keys) != 3 || !slices.Contains(keys, job.OutputKey("j1")) || !slices.Contains(keys, job.SegmentsKey("j1")) {
		t.Fatalf("after the late stage the bucket holds %v, want only the input, the output and the translated segments", keys)
	}
}
