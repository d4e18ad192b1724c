package pipeline

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// The pass checks each batch as it comes back: a number the translation
// lost and formatting put back by guess are flags on their segments, in
// the stored segments and the job's review; the targets stored are the
// repaired ones; the structure verdict and the warnings say the same.
func TestPassReviewsItsSegments(t *testing.T) {
	units := []segment.Unit{
		{ID: "u1", Segments: []segment.Segment{{ID: "u1:0", Source: "We sold 42 units."}, {ID: "u1:1", Source: "Plain sentence here."}}},
		{ID: "u2", Codes: []segment.Code{{ID: 1, Kind: segment.Paired, Type: "link"}}, Segments: []segment.Segment{{ID: "u2:0", Source: `<g id="1">Bold</g> start.`}}},
	}
	p, js, _, mb := passPipeline(t, sliceDocs{units: units}, &shout{}, nil)
	p.Memory = humanMemory{"We sold 42 units.": "Vendimos unidades.", "Plain sentence here.": "Una frase sencilla.", `<g id="1">Bold</g> start.`: "Inicio negrita."}
	runPass(t, p)
	j := mustJob(t, js)
	if j.Status != job.Processing || j.Error != "" {
		t.Fatalf("job %s: %q", j.Status, j.Error)
	}
	s := j.Review
	if s == nil || s.Segments != 3 || s.ToCheck != 2 || s.ByKind[review.Numbers] != 1 || s.ByKind[review.Links] != 1 {
		t.Fatalf("review %+v", s)
	}
	var doc segment.Document
	if err := json.Unmarshal(mb.m[job.SegmentsKey(&job.Job{ID: "j1"})], &doc); err != nil {
		t.Fatal(err)
	}
	kinds := func(sg segment.Segment) (out []review.Kind) {
		for _, f := range sg.Flags {
			out = append(out, f.Kind)
		}
		return out
	}
	if got := kinds(doc.Units[0].Segments[0]); !slices.Equal(got, []review.Kind{review.Numbers}) {
		t.Errorf("flags of the lost number: %v", got)
	}
	if got := kinds(doc.Units[0].Segments[1]); got != nil {
		t.Errorf("flags of a clean sentence: %v", got)
	}
	if sg := doc.Units[1].Segments[0]; !slices.Equal(kinds(sg), []review.Kind{review.Links}) || sg.Target == "Inicio negrita." {
		t.Errorf("the link dropped: flags %v, target %q (stored unrepaired)", kinds(sg), sg.Target)
	}
	if j.Structure != "fidelity: no loss, formatting put back in 1 sentence to check" {
		t.Errorf("structure %q", j.Structure)
	}
	warns := j.ShownWarnings()
	for _, w := range []string{"2 of 3 sentences to check.", "1 sentence has numbers or dates that differ from the original.",
		"1 sentence lost a link, which was put back where it most likely belongs."} {
		if !slices.Contains(warns, w) {
			t.Errorf("warnings %q lack %q", warns, w)
		}
	}
}
