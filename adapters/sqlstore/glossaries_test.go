package sqlstore

import (
	"errors"
	"reflect"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

func TestGlossariesSQLite(t *testing.T)   { testGlossaries(t, sqliteBackend) }
func TestGlossariesPostgres(t *testing.T) { testGlossaries(t, postgresBackend(t)) }

// Glossaries round-trip with their entries, are listed and deleted per
// account only, and a job keeps the glossary it was submitted with.
func testGlossaries(t *testing.T, b backend) {
	s := newStore(t, b)
	for _, id := range []string{"a1", "a2"} {
		if err := s.CreateAccount(ctx, &account.Account{ID: id, Name: id, PlanName: "pro", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	g1 := &glossary.Glossary{ID: "g1", AccountID: "a1", Name: "Billing", SourceLang: "en", TargetLang: "es",
		Entries: []glossary.Entry{{Source: "invoice", Target: "factura"}, {Source: "東京", Target: "Tokio \"quoted\""}}, CreatedAt: t0}
	g2 := &glossary.Glossary{ID: "g2", AccountID: "a1", Name: "Legal", SourceLang: "en", TargetLang: "de",
		Entries: []glossary.Entry{{Source: "court", Target: "Gericht"}}, CreatedAt: t0.Add(1)}
	for _, g := range []*glossary.Glossary{g1, g2} {
		if err := s.CreateGlossary(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if g1.EntryCount != 2 || !g1.CreatedAt.Equal(norm(t0)) || g1.CreatedAt.Location().String() != "UTC" {
		t.Errorf("created %+v", g1)
	}
	if err := s.CreateGlossary(ctx, &glossary.Glossary{ID: "g1", AccountID: "a2", Name: "dup", Entries: []glossary.Entry{{Source: "a", Target: "b"}}}); err == nil {
		t.Error("a duplicate id was stored")
	}
	got, err := s.GetGlossary(ctx, "a1", "g1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g1) {
		t.Errorf("got %+v\nwant %+v", got, g1)
	}
	if _, err := s.GetGlossary(ctx, "a2", "g1"); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("another account read g1: %v", err)
	}
	list, err := s.ListGlossaries(ctx, "a1")
	if err != nil || len(list) != 2 || list[0].ID != "g1" || list[1].ID != "g2" || list[0].Entries != nil || list[1].EntryCount != 1 || list[1].Name != "Legal" {
		t.Fatalf("list %+v %v", list, err)
	}
	if list, _ := s.ListGlossaries(ctx, "a2"); len(list) != 0 {
		t.Errorf("a2 lists %+v", list)
	}
	if err := s.DeleteGlossary(ctx, "a2", "g1"); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("another account deleted g1: %v", err)
	}
	if err := s.DeleteGlossary(ctx, "a1", "g1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteGlossary(ctx, "a1", "g1"); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := s.GetGlossary(ctx, "a1", "g1"); !errors.Is(err, ports.ErrNotFound) {
		t.Errorf("deleted glossary read: %v", err)
	}

	j := job.New("j1", "a1", t0)
	j.GlossaryID = "g2"
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	if j2, err := s.GetJob(ctx, "j1"); err != nil || j2.GlossaryID != "g2" {
		t.Errorf("job glossary: %+v %v", j2, err)
	}
}
