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
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", entries); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTM(ctx, "apertium", "full", "en", "he", append(hashes, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, entries) {
		t.Fatalf("got %d entries, want %d", len(got), len(entries))
	}
	// Keys are scoped by engine, mode and direction; a put overwrites.
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", map[string]string{"h0001": "new"}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTM(ctx, "apertium", "full", "en", "he", []string{"h0001", "h0002"})
	if got["h0001"] != "new" || got["h0002"] != "שלום 2" {
		t.Fatalf("overwrite: %v", got)
	}
	for _, other := range [][4]string{{"deepl", "full", "en", "he"}, {"apertium", "literal", "en", "he"}, {"apertium", "full", "en", "ar"}} {
		got, err := s.GetTM(ctx, other[0], other[1], other[2], other[3], hashes[:5])
		if err != nil || len(got) != 0 {
			t.Fatalf("%v: %v %v", other, got, err)
		}
	}
	if got, err := s.GetTM(ctx, "apertium", "full", "en", "he", nil); err != nil || len(got) != 0 {
		t.Fatalf("no hashes: %v %v", got, err)
	}
	if err := s.PutTM(ctx, "apertium", "full", "en", "he", nil); err != nil {
		t.Fatal(err)
	}
}
