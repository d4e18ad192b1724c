package sqlstore

import (
	"fmt"
	"reflect"
	"testing"
)

func testTranslationMemory(t *testing.T, b backend) {
	s := newStore(t, b)
	entries := map[string]string{}
	var hashes []string
	for i := 0; i < 450; i++ { // more than one chunk
		h := fmt.Sprintf("h%04d", i)
		entries[h] = fmt.Sprintf("שלום %d", i)
		hashes = append(hashes, h)
	}
	// An output stored with its engine's notes (core/translate) keeps them
	// after U+FFFF, which PostgreSQL's text stores as SQLite's does.
	entries["h0007"] = "שלום 7\uffff{\"u\":[\"zork\"]}"
	if err := s.PutTM(ctx, "a1", "apertium", "full", "en", "he", entries); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTM(ctx, "a1", "apertium", "full", "en", "he", append(hashes, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatalf("got %d entries, want %d", len(got), len(entries))
	}
	// Keys are scoped by account, engine, mode and direction; a put overwrites.
	if err := s.PutTM(ctx, "a1", "apertium", "full", "en", "he", map[string]string{"h0001": "new"}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTM(ctx, "a1", "apertium", "full", "en", "he", []string{"h0001", "h0002"})
	if got["h0001"] != "new" || got["h0002"] != "שלום 2" {
		t.Fatalf("overwrite: %v", got)
	}
	for _, other := range [][5]string{{"a2", "apertium", "full", "en", "he"}, {"", "apertium", "full", "en", "he"},
		{"a1", "deepl", "full", "en", "he"}, {"a1", "apertium", "literal", "en", "he"}, {"a1", "apertium", "full", "en", "ar"}} {
		got, err := s.GetTM(ctx, other[0], other[1], other[2], other[3], other[4], hashes[:5])
		if err != nil || len(got) != 0 {
			t.Fatalf("%v: %v %v", other, got, err)
		}
	}
	if got, err := s.GetTM(ctx, "a1", "apertium", "full", "en", "he", nil); err != nil || len(got) != 0 {
		t.Fatalf("no hashes: %v %v", got, err)
	}
	if err := s.PutTM(ctx, "a1", "apertium", "full", "en", "he", nil); err != nil {
		t.Fatal(err)
	}
	// Another account's entry for the same text is its own; the shared
	// lookup (the operator's choice) sees every account's.
	if err := s.PutTM(ctx, "a2", "apertium", "full", "en", "he", map[string]string{"h0002": "a2's", "h9999": "only a2"}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTM(ctx, "a1", "apertium", "full", "en", "he", []string{"h0002", "h9999"})
	if got["h0002"] != "שלום 2" || len(got) != 1 {
		t.Fatalf("a1 after a2 stored its own: %v", got)
	}
	shared, err := s.GetSharedTM(ctx, "apertium", "full", "en", "he", []string{"h9999", "h0003", "nope"})
	if err != nil || shared["h9999"] != "only a2" || shared["h0003"] != "שלום 3" || len(shared) != 2 {
		t.Fatalf("shared: %v %v", shared, err)
	}
}

// 0012_tm_per_account keeps the entries stored before it, which had no
// owner, as account "": no account's own memory, a shared memory's.
func testTranslationMemoryMigratedToAccounts(t *testing.T, b backend) {
	target := b.target(t)
	s, err := b.open(target)
	if err != nil {
		t.Fatal(err)
	}
	created := "TEXT"
	if b.name == "postgres" {
		created = "TIMESTAMPTZ"
	}
	for _, q := range []string{`DROP TABLE translation_memory`,
		`CREATE TABLE translation_memory (engine TEXT NOT NULL, mode TEXT NOT NULL, src TEXT NOT NULL, tgt TEXT NOT NULL,
			hash TEXT NOT NULL, target TEXT NOT NULL, created_at ` + created + ` NOT NULL, PRIMARY KEY (engine, mode, src, tgt, hash))`,
		`INSERT INTO translation_memory VALUES ('apertium', 'full', 'en', 'es', 'h1', 'hola', '` + ts(t0) + `')`,
		`DELETE FROM schema_migrations WHERE version = '0012_tm_per_account'`} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if s, err = b.open(target); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	own, err := s.GetTM(ctx, "a1", "apertium", "full", "en", "es", []string{"h1"})
	if err != nil || len(own) != 0 {
		t.Fatalf("an account's memory after the migration: %v %v", own, err)
	}
	shared, err := s.GetSharedTM(ctx, "apertium", "full", "en", "es", []string{"h1"})
	if err != nil || shared["h1"] != "hola" {
		t.Fatalf("the shared memory after the migration: %v %v", shared, err)
	}
}
