package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// shout upper-cases the text of every segment (codes kept) and records what it was sent.
type shout struct{ sent []string }

func (s *shout) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{Name: "shout", AnyToAny: true}, nil
}
func (s *shout) Translate(_ context.Context, r ports.TranslateRequest) (ports.TranslateResult, error) {
	out := make([]string, len(r.Segments))
	for i, x := range r.Segments {
		s.sent = append(s.sent, x)
		toks := tagged.Tokenize(x)
		for k := range toks {
			toks[k].Text = strings.ToUpper(toks[k].Text)
		}
		out[i] = tagged.Render(toks)
	}
	return ports.TranslateResult{Segments: out}, nil
}

type shoutRegistry struct{ p *shout }

func (r shoutRegistry) Engines(context.Context) ([]ports.Engine, error) {
	return []ports.Engine{{Name: "shout", Provider: r.p, Caps: ports.Capabilities{Name: "shout", AnyToAny: true}}}, nil
}

// humanMemory answers one account's sources.
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

// Segments the account's memory holds are taken from it and never sent;
// the rest go to the engine and land back in their own places, across
// units, with each unit's codes.
func TestHumanTranslationsBeforeTheEngine(t *testing.T) {
	eng := &shout{}
	p := &Pipeline{
		Translator: &translate.Translator{Engines: shoutRegistry{eng}},
		Memory:     humanMemory{"Second one.": "Segunda (humana).", `<g id="1">Bold</g> start.`: `Inicio <g id="1">negrita</g>.`},
	}
	doc := &segment.Document{Units: []segment.Unit{
		{ID: "u1", Segments: []segment.Segment{{ID: "u1:0", Source: "First one."}, {ID: "u1:1", Source: "Second one."}, {ID: "u1:2", Source: "Third one."}}},
		{ID: "u2", Codes: []segment.Code{{ID: 1, Kind: segment.Paired}}, Segments: []segment.Segment{{ID: "u2:0", Source: `<g id="1">Bold</g> start.`}, {ID: "u2:1", Source: `Then <g id="1">more</g>.`}}},
	}}
	j := &job.Job{ID: "j1", AccountID: "a1", Mode: translation.Full}
	res, err := p.translateRemembering(context.Background(), j, doc, "en", "es", translate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { got = append(got, s.Target) })
	want := []string{"FIRST ONE.", "Segunda (humana).", "THIRD ONE.", `Inicio <g id="1">negrita</g>.`, `THEN <g id="1">MORE</g>.`}
	if !slices.Equal(got, want) {
		t.Errorf("targets %q\nwant %q", got, want)
	}
	for _, s := range eng.sent {
		if strings.Contains(s, "Second") || strings.Contains(s, "Bold") {
			t.Errorf("a remembered segment was sent to the engine: %q", s)
		}
	}
	if res.Metrics.CacheHits != 2 || res.Metrics.Segments != 5 || !strings.Contains(strings.Join(res.Warnings, " "), "2 of 5 segments") {
		t.Errorf("result %+v", res)
	}
	// Another account gets nothing from this memory.
	eng.sent = nil
	j.AccountID = "a2"
	doc2 := &segment.Document{Units: []segment.Unit{{ID: "u1", Segments: []segment.Segment{{ID: "u1:0", Source: "Second one."}}}}}
	if _, err := p.translateRemembering(context.Background(), j, doc2, "en", "es", translate.Options{}); err != nil || doc2.Units[0].Segments[0].Target != "SECOND ONE." {
		t.Errorf("another account: %v %q", err, doc2.Units[0].Segments[0].Target)
	}
}
