package pipeline

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// A pass translates while it reads: the engine gets the first batch before
// the read has handed over the rest, and the output and the segments hold
// every unit, in order.
func TestPassTranslatesWhileItReads(t *testing.T) {
	eng := &shout{}
	units := tenWords(250)
	docs := sliceDocs{units: units, between: func(i int) {
		if i != 200 {
			return
		}
		deadline := time.Now().Add(10 * time.Second)
		for eng.seen() == 0 { // the read waits here for the engine
			if time.Now().After(deadline) {
				panic("the engine got nothing while the document was being read")
			}
			time.Sleep(time.Millisecond)
		}
	}}
	p, js, b, mb := passPipeline(t, docs, eng, nil)
	runPass(t, p)
	j := mustJob(t, js)
	if j.Status != job.Processing || j.Stage != job.StageLaidOut || j.Error != "" {
		t.Fatalf("job %s at %s: %q", j.Status, j.Stage, j.Error)
	}
	out := strings.Split(strings.TrimSpace(string(mb.m[job.OutputKey(&job.Job{ID: "j1"})])), "\n")
	if len(out) != 250 || out[0] != "ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN0" || out[249] != "ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN249" {
		t.Fatalf("output of %d lines: %q … %q", len(out), out[0], out[len(out)-1])
	}
	segs := string(mb.m[job.SegmentsKey(&job.Job{ID: "j1"})])
	if !strings.HasPrefix(segs, `{"format":"docx","units":[{"id":"0"`) || strings.Count(segs, `"target":"ONE TWO`) != 250 {
		t.Errorf("stored segments: %.200s", segs)
	}
	if j.Words != 2500 || j.Engine != "shout" || j.Metrics.Segments != 250 || j.Metrics.EngineCalls != 3 || j.Structure != "fidelity: no loss" {
		t.Errorf("job words %d engine %q metrics %+v structure %q", j.Words, j.Engine, j.Metrics, j.Structure)
	}
	want := []ports.Topic{ports.TopicStarted, ports.TopicExtracted, ports.TopicTranslated, ports.TopicLaidOut}
	if !slices.Equal(b.sent, want) {
		t.Errorf("events %v, want %v", b.sent, want)
	}
}

// A source language not given is detected once the whole text is read,
// and recorded as a code; the render is asked for the job's codes.
func TestPassDetectsTheSourceAndLaysOutForTheCodes(t *testing.T) {
	var got ports.LayoutRequest
	docs := sliceDocs{units: tenWords(3), got: &got, report: &job.RTLReport{Status: "full"}}
	p, js, _, _ := passPipeline(t, docs, &shout{}, func(j *job.Job) { j.SourceLang, j.TargetLang = "auto", "ar" })
	p.Detector = detector{"fr"}
	runPass(t, p)
	j := mustJob(t, js)
	if j.DetectedLang != "fr" || got != (ports.LayoutRequest{SourceLang: "fr", TargetLang: "ar"}) {
		t.Errorf("detected %q, layout request %+v", j.DetectedLang, got)
	}
	if j.RTL == nil || j.RTL.Status != "full" {
		t.Errorf("RTL report %+v", j.RTL)
	}
}

func TestPassRefusesATargetThatIsNoCode(t *testing.T) {
	p, js, _, _ := passPipeline(t, sliceDocs{units: tenWords(1)}, &shout{}, func(j *job.Job) { j.TargetLang = "xx" })
	runPass(t, p)
	if j := mustJob(t, js); j.Status != job.Failed || !strings.Contains(j.Error, `unknown target language code "xx"`) {
		t.Fatalf("job %s: %q", j.Status, j.Error)
	}
}

// Segments the account's memory holds are taken from it and never sent;
// the rest go to the engine and land back in their own places, across
// units, with each unit's codes.
func TestHumanTranslationsBeforeTheEngine(t *testing.T) {
	eng := &shout{}
	units := []segment.Unit{
		{ID: "u1", Segments: []segment.Segment{{ID: "u1:0", Source: "First one."}, {ID: "u1:1", Source: "Second one."}, {ID: "u1:2", Source: "Third one."}}},
		{ID: "u2", Codes: []segment.Code{{ID: 1, Kind: segment.Paired}}, Segments: []segment.Segment{{ID: "u2:0", Source: `<g id="1">Bold</g> start.`}, {ID: "u2:1", Source: `Then <g id="1">more</g>.`}}},
		{ID: "u3", Segments: []segment.Segment{{ID: "u3:0", Source: "A zork here."}}},
	}
	p, js, _, mb := passPipeline(t, sliceDocs{units: units}, eng, nil)
	p.Memory = humanMemory{"Second one.": "Segunda (humana).", `<g id="1">Bold</g> start.`: `Inicio <g id="1">negrita</g>.`}
	runPass(t, p)
	got := strings.Split(strings.TrimSpace(string(mb.m[job.OutputKey(&job.Job{ID: "j1"})])), "\n")
	want := []string{"FIRST ONE.", "Segunda (humana).", "THIRD ONE.", `Inicio <g id="1">negrita</g>.`, `THEN <g id="1">MORE</g>.`, "A ZORK HERE."}
	if !slices.Equal(got, want) {
		t.Errorf("targets %q\nwant %q", got, want)
	}
	for _, s := range eng.sent {
		if strings.Contains(s, "Second") || strings.Contains(s, "Bold") {
			t.Errorf("a remembered segment was sent to the engine: %q", s)
		}
	}
	j := mustJob(t, js)
	if j.Metrics.CacheHits != 2 || j.Metrics.Segments != 6 || !strings.Contains(strings.Join(j.Warnings, " "), "2 of 6 sentences") {
		t.Errorf("job metrics %+v, warnings %q", j.Metrics, j.Warnings)
	}
	// What the engine noted about the segments it translated stays with
	// them beside the remembered ones: the review flags the unknown word.
	if j.Review == nil || j.Review.ByKind[review.UnknownWords] != 1 {
		t.Errorf("review %+v, want the unknown word of the engine's segment flagged", j.Review)
	}
	// Another account gets nothing from this memory.
	eng.sent = nil
	p, _, _, mb = passPipeline(t, sliceDocs{units: units[:1]}, eng, nil)
	p.Memory = humanMemory{"Second one.": "Segunda (humana)."}
	js2 := p.Jobs.(*jobs)
	js2.UpdateJob(context.Background(), "j1", func(j *job.Job) error { j.AccountID = "a2"; return nil })
	runPass(t, p)
	if got := string(mb.m[job.OutputKey(&job.Job{ID: "j1"})]); !strings.Contains(got, "SECOND ONE.") {
		t.Errorf("another account: %q", got)
	}
}

// humanMemory answers account a1's en→es sources.
type humanMemory map[string]string

func (m humanMemory) PutMemory(context.Context, string, []ports.MemoryEntry) error { return nil }
func (m humanMemory) ListMemory(context.Context, string, func(ports.MemoryEntry) error) error {
	return nil
}
func (m humanMemory) RecallMemory(_ context.Context, account, src, tgt string, sources []string) (map[string]string, error) {
	out := map[string]string{}
	if account != "a1" || src != "en" || tgt != "es" {
		return out, nil
	}
	for _, s := range sources {
		if t, ok := m[s]; ok {
			out[s] = t
		}
	}
	return out, nil
}

// failingDocs' render fails with err.
type failingDocs struct {
	sliceDocs
	err error
}

func (d failingDocs) Read(ctx context.Context, b ports.Blob, emit func([]segment.Unit) error) (ports.Source, error) {
	if _, err := d.sliceDocs.Read(ctx, b, emit); err != nil {
		return nil, err
	}
	return d, nil
}

func (d failingDocs) Render(context.Context, func() (*segment.Unit, error), ports.LayoutRequest, io.Writer) (*ports.Rendered, error) {
	return nil, d.err
}

// A document the render refuses (a block too large to lay out) fails the
// job with the reason; a passing error leaves it for another try.
func TestRenderFailures(t *testing.T) {
	bad := failingDocs{sliceDocs: sliceDocs{units: tenWords(2)}, err: ports.ErrBadDocument}
	p, js, _, _ := passPipeline(t, bad, &shout{}, nil)
	runPass(t, p)
	if j := mustJob(t, js); j.Status != job.Failed || !strings.Contains(j.Error, ports.ErrBadDocument.Error()) {
		t.Errorf("bad document: job %s %q", j.Status, j.Error)
	}
	passing := failingDocs{sliceDocs: sliceDocs{units: tenWords(2)}, err: io.ErrUnexpectedEOF}
	p, js, _, _ = passPipeline(t, passing, &shout{}, nil)
	if err := p.stage(job.StageLaidOut, ports.TopicLaidOut, p.translate)(context.Background(), event()); err == nil {
		t.Error("a passing render error was not returned for redelivery")
	}
	if j := mustJob(t, js); j.Status != job.Processing || !j.Stage.Reached(job.StageExtracted) || j.Stage.Reached(job.StageLaidOut) {
		t.Errorf("passing error: job %s at %s", j.Status, j.Stage)
	}
}
