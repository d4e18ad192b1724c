package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// A translation-memory write is durable when PutTM returns, though only
// appended to the journal: a process that dies before the merge leaves it
// for the next open, which merges it before anything reads the memory;
// until then the writer's own GetTM answers from it.
func TestMemoryJournalIsMergedAfterTheWriterDied(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "dragoman.db")
	first, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	first.journal.stop <- struct{}{} // its merger is gone: the process dies before it merges
	entries := map[string]string{}
	var hashes []string
	for i := range 2500 { // more than a merge chunk
		h := fmt.Sprintf("h%05d", i)
		entries[h], hashes = fmt.Sprintf("t%d", i), append(hashes, h)
	}
	if err := first.PutTM(ctx, "a1", "pseudo", "full", "en", "es", entries); err != nil {
		t.Fatal(err)
	}
	var journaled, merged int
	if err := first.w.Get(&journaled, "SELECT COUNT(*) FROM tm_journal"); err != nil || journaled != 2500 {
		t.Fatalf("journal holds %d rows (%v), want all 2500", journaled, err)
	}
	if got, err := first.GetTM(ctx, "a1", "pseudo", "full", "en", "es", hashes); err != nil || len(got) != 2500 {
		t.Fatalf("the writer's own lookup before the merge: %d entries, %v", len(got), err)
	}
	// The first process dies here (no Close); another opens the file.
	second, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if err := second.w.Get(&journaled, "SELECT COUNT(*) FROM tm_journal"); err != nil || journaled != 0 {
		t.Fatalf("after the open, %d rows still in the journal (%v)", journaled, err)
	}
	if err := second.w.Get(&merged, "SELECT COUNT(*) FROM translation_memory"); err != nil || merged != 2500 {
		t.Fatalf("%d rows merged (%v)", merged, err)
	}
	got, err := second.GetTM(ctx, "a1", "pseudo", "full", "en", "es", hashes)
	if err != nil || len(got) != 2500 || got["h00042"] != "t42" {
		t.Fatalf("after the merge: %d entries, %v", len(got), err)
	}
	// A writer that goes quiet merges its own journal.
	if err := second.PutTM(ctx, "a1", "pseudo", "full", "en", "es", map[string]string{"new": "x"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for second.w.Get(&journaled, "SELECT COUNT(*) FROM tm_journal"); journaled != 0; second.w.Get(&journaled, "SELECT COUNT(*) FROM tm_journal") {
		if time.Now().After(deadline) {
			t.Fatal("the journal was not merged once the writes went quiet")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A lookup whose read fails while the journal holds some of its hashes is
// an error, never a panic nor a partial answer passed off as whole.
func TestMemoryLookupFailingWithJournalHits(t *testing.T) {
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "dragoman.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.journal.stop <- struct{}{} // no merge: the hit stays in the journal
	ctx := context.Background()
	if err := s.PutTM(ctx, "a1", "pseudo", "full", "en", "es", map[string]string{"h1": "t1"}); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for name, get := range map[string]func() (map[string]string, error){
		"account": func() (map[string]string, error) {
			return s.GetTM(cancelled, "a1", "pseudo", "full", "en", "es", []string{"h1", "h2"})
		},
		"shared": func() (map[string]string, error) {
			return s.GetSharedTM(cancelled, "pseudo", "full", "en", "es", []string{"h1", "h2"})
		},
	} {
		if got, err := get(); err == nil || got != nil {
			t.Errorf("%s lookup on a failed read: %v, %v; want the error alone", name, got, err)
		}
	}
}
