package pipeline

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// memDocs assembles in memory: the document is the source's text with the
// translated segments after it.
type memDocs struct {
	emptyDocs
	assembled atomic.Int32
}

type memAssembled struct{ text string }

func (a *memAssembled) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, a.text)
	return int64(n), err
}

func (d *memDocs) AssembleInMemory(_ context.Context, src ports.Blob, doc *segment.Document) (ports.Assembled, []string, error) {
	d.assembled.Add(1)
	b, err := io.ReadAll(src)
	if err != nil {
		return nil, nil, err
	}
	var targets []string
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { targets = append(targets, s.Target) })
	return &memAssembled{text: string(b) + "|" + strings.Join(targets, ",")}, []string{"a warning"}, nil
}

// memLayout lays out what memDocs assembled; Apply (the path through a
// written document) must not be taken.
type memLayout struct {
	layout
	got []ports.Assembled
}

func (l *memLayout) Apply(context.Context, ports.Blob, ports.LayoutRequest, io.Writer) (*job.RTLReport, error) {
	panic("the layout read a written document instead of the assembled one")
}

func (l *memLayout) ApplyAssembled(_ context.Context, doc ports.Assembled, req ports.LayoutRequest, w io.Writer) (*job.RTLReport, error) {
	l.got = append(l.got, doc)
	io.WriteString(w, req.TargetLang+":")
	_, err := doc.WriteTo(w)
	return &job.RTLReport{Status: "full"}, err
}

func handoffPipeline(t *testing.T) (*Pipeline, *memBlobs, *job.Job) {
	p, js, _, _ := newPipeline(t)
	mb := &memBlobs{m: map[string][]byte{}}
	p.Blobs = mb
	j := mustJob(t, js)
	j.Format, j.DetectedLang, j.TargetLang = "docx", "en", "ar"
	ctx := context.Background()
	mb.Put(ctx, key(j, "input"), strings.NewReader("source"))
	doc := &segment.Document{Units: []segment.Unit{{ID: "u", Segments: []segment.Segment{{ID: "s", Source: "a", Target: "b"}}}}}
	if err := p.putDoc(ctx, job.SegmentsKey(j.ID), doc); err != nil {
		t.Fatal(err)
	}
	return p, mb, j
}

// Assemble and layout of one process share the assembled document: it is
// assembled once, laid out as it is, written once, and no assembled.docx
// is stored between the stages.
func TestAssembleHandsItsDocumentToTheLayout(t *testing.T) {
	p, mb, j := handoffPipeline(t)
	docs, l := &memDocs{}, &memLayout{}
	p.Docs, p.Layout = docs, l
	ctx := context.Background()
	apply, err := p.assemble(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if !slices.ContainsFunc(j.Warnings, func(w string) bool { return w == "a warning" }) {
		t.Errorf("assembly warnings %v not recorded", j.Warnings)
	}
	if slices.Contains(mb.keys(), key(j, "assembled.docx")) {
		t.Error("an assembled.docx was written between the stages")
	}
	apply, err = p.layout(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if n := docs.assembled.Load(); n != 1 {
		t.Errorf("assembled %d times, want once", n)
	}
	if len(l.got) != 1 || l.got[0].(*memAssembled).text != "source|b" {
		t.Fatalf("the layout got %v", l.got)
	}
	if got := string(mb.m[job.OutputKey(j.ID)]); got != "ar:source|b" {
		t.Errorf("output %q", got)
	}
	if j.RTL == nil || j.RTL.Status != "full" {
		t.Errorf("RTL report %+v", j.RTL)
	}
	if h := p.held.take(j.ID); h != nil {
		t.Error("the layout left the document held")
	}
}

// A layout stage that finds nothing held (the assemble ran in another
// process, or before a restart) assembles again from translated.json and
// the source; without a layout the assembled document is the output.
func TestLayoutWithoutAHeldDocumentAssemblesAgain(t *testing.T) {
	p, mb, j := handoffPipeline(t)
	docs, l := &memDocs{}, &memLayout{}
	p.Docs, p.Layout = docs, l
	ctx := context.Background()
	apply, err := p.layout(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if n := docs.assembled.Load(); n != 1 || len(l.got) != 1 {
		t.Fatalf("assembled %d times, laid out %d, want once each", n, len(l.got))
	}
	if got := string(mb.m[job.OutputKey(j.ID)]); got != "ar:source|b" {
		t.Errorf("output %q", got)
	}

	p.Layout = nil
	if _, err := p.assemble(ctx, j); err != nil {
		t.Fatal(err)
	}
	if _, err := p.layout(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got := string(mb.m[job.OutputKey(j.ID)]); got != "source|b" {
		t.Errorf("output without a layout %q", got)
	}
}

// Held documents stay few: past the bound the oldest is released (its
// job's layout then assembles again).
func TestHandoffIsBounded(t *testing.T) {
	var o handoff
	closed := 0
	for i := range maxHeld + 3 {
		o.put(string(rune('a'+i)), &heldDoc{src: closeCounter{&closed}, at: clock{}.Now()})
	}
	if len(o.docs) != maxHeld || closed != 3 {
		t.Fatalf("%d held, %d released", len(o.docs), closed)
	}
	o.drop("z")
	for id := range o.docs {
		o.drop(id)
	}
	if closed != maxHeld+3 {
		t.Errorf("%d released of %d", closed, maxHeld+3)
	}
}

type closeCounter struct{ n *int }

func (closeCounter) Read([]byte) (int, error)          { return 0, io.EOF }
func (closeCounter) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }
func (closeCounter) Seek(int64, int) (int64, error)    { return 0, nil }
func (closeCounter) Size() int64                       { return 0 }
func (c closeCounter) Close() error                    { *c.n++; return nil }
