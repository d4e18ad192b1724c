package sqlstore

import (
	"reflect"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

func TestAccountMemorySQLite(t *testing.T)   { testAccountMemory(t, sqliteBackend) }
func TestAccountMemoryPostgres(t *testing.T) { testAccountMemory(t, postgresBackend(t)) }

// An account's own translations are kept per account and direction, a
// later entry for the same source replaces the earlier one, and a job's
// revision survives the round trip.
func testAccountMemory(t *testing.T, b backend) {
	s := newStore(t, b)
	for _, id := range []string{"a1", "a2"} {
		if err := s.CreateAccount(ctx, &account.Account{ID: id, Name: id, PlanName: "free", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	in := []ports.MemoryEntry{
		{SourceLang: "en", TargetLang: "es", Source: `Hello <g id="1">world</g>`, Target: `Hola <g id="1">mundo</g>`, Origin: "human"},
		{SourceLang: "en", TargetLang: "es", Source: "Bye", Target: "Adiós", Origin: "import"},
		{SourceLang: "en", TargetLang: "fr", Source: "Bye", Target: "Au revoir", Origin: "import"},
	}
	if err := s.PutMemory(ctx, "a1", in); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMemory(ctx, "a1", []ports.MemoryEntry{{SourceLang: "en", TargetLang: "es", Source: "Bye", Target: "Chao", Origin: "human"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecallMemory(ctx, "a1", "en", "es", []string{`Hello <g id="1">world</g>`, "Bye", "unknown"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{`Hello <g id="1">world</g>`: `Hola <g id="1">mundo</g>`, "Bye": "Chao"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("recall %v, want %v", got, want)
	}
	if got, _ := s.RecallMemory(ctx, "a2", "en", "es", []string{"Bye"}); len(got) != 0 {
		t.Fatalf("another account recalls %v", got)
	}
	var list []ports.MemoryEntry
	if err := s.ListMemory(ctx, "a1", func(e ports.MemoryEntry) error { list = append(list, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Source != "Bye" || list[0].Target != "Chao" || list[0].Origin != "human" || list[2].TargetLang != "fr" {
		t.Fatalf("list %+v", list)
	}

	j := job.New("j1", "a1", t0)
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error { j.Revision, j.Files = 2, "r2-ab/"; return nil }); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.GetJob(ctx, "j1"); j.Revision != 2 || j.Files != "r2-ab/" {
		t.Fatalf("revision %d, files %q", j.Revision, j.Files)
	}
}
