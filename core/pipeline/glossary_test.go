package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

type glossaries map[string]*glossary.Glossary

func (g glossaries) CreateGlossary(context.Context, *glossary.Glossary) error { return nil }
func (g glossaries) GetGlossary(_ context.Context, acct, id string) (*glossary.Glossary, error) {
	if x, ok := g[id]; ok && x.AccountID == acct {
		return x, nil
	}
	return nil, ports.ErrNotFound
}
func (g glossaries) ListGlossaries(context.Context, string) ([]*glossary.Glossary, error) {
	return nil, nil
}
func (g glossaries) DeleteGlossary(context.Context, string, string) error { return nil }

// A job's glossary is loaded for its account; one deleted since the
// submission fails the job at once with a message saying so.
func TestJobGlossary(t *testing.T) {
	g1 := &glossary.Glossary{ID: "g1", AccountID: "a1", Entries: []glossary.Entry{{Source: "a", Target: "b"}}}
	p := &Pipeline{Glossaries: glossaries{"g1": g1}}
	j := job.New("j1", "a1", time.Now())
	if g, err := p.glossary(context.Background(), j); g != nil || err != nil {
		t.Errorf("no glossary: %v %v", g, err)
	}
	j.GlossaryID = "g1"
	if g, err := p.glossary(context.Background(), j); g != g1 || err != nil {
		t.Errorf("g1: %v %v", g, err)
	}
	j.GlossaryID = "gone"
	_, err := p.glossary(context.Background(), j)
	var f *Failure
	if !errors.As(err, &f) || !strings.Contains(f.Msg, "the glossary gone was deleted before the job was translated") {
		t.Errorf("deleted: %v", err)
	}
	j.AccountID, j.GlossaryID = "a2", "g1"
	if _, err := p.glossary(context.Background(), j); !errors.As(err, &f) {
		t.Errorf("another account's glossary: %v", err)
	}
}
