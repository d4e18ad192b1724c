package glossary

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkProtectFullGlossary: a glossary at the entry limit whose terms
// all start with the same letter, over a 9-word sentence where most words
// start with it too. Lookups are by term length, not by term, so this is
// about as fast as a small glossary.
func BenchmarkProtectFullGlossary(b *testing.B) {
	var es []Entry
	for i := 0; i < MaxEntries; i++ {
		es = append(es, Entry{Source: fmt.Sprintf("s%dterm", i), Target: "x"})
	}
	m := NewMatcher(es)
	text := strings.Repeat("some simple sentences say s42term so surely slow ", 10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, p := m.Protect(text); len(p) != 10 {
			b.Fatalf("placed %d", len(p))
		}
	}
}
