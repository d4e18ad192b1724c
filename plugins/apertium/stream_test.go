package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

func TestEncodeStream(t *testing.T) {
	for _, c := range []struct{ seg, want string }{
		// every character the stream format reserves takes a backslash
		{`a\b[c]d^e$f@g/h&lt;i&gt;j{k}l*m`, `a\\b\[c\]d\^e\$f\@g\/h\<i\>j\{k\}l\*m` + segmentEnd},
		// "~", tabs and newlines travel as superblanks, like apertium-destxt writes them
		{"a~b\tc\nd", "a[~]b[\t]c[\n]d" + segmentEnd},
		{`The <g id="1">red</g> car`, `The [[t:g:1]]red[[/]] car` + segmentEnd},
		{`<g id="1">very <g id="2">fast</g> car</g>`, `[[t:g:1]]very [[/]][[t:g:1; t:g:2]]fast[[/]][[t:g:1]] car[[/]]` + segmentEnd},
		{`eats<x id="2"/> it`, `eats[<x 2>] it` + segmentEnd},
		// a span inside a word wraps the whole word
		{`un<g id="1">break</g>able glass`, `[[t:g:1]]unbreakable[[/]] glass` + segmentEnd},
		{`ita<g id="1">l</g><g id="2">i</g>c`, `[[t:g:1; t:g:2]]italic[[/]]` + segmentEnd},
		{``, segmentEnd},
		// a segment that ends its own sentence gets no period of ours
		{`It is <g id="1">red</g> today.`, `It is [[t:g:1]]red[[/]] today.` + sentenceEnd},
		{`Is it red?`, `Is it red?` + sentenceEnd},
		{`Made in the U.S.`, `Made in the U.S.` + segmentEnd},
		{`It is <g id="1">red.</g>`, `It is [[t:g:1]]red.[[/]]` + segmentEnd},
		{`Version 2.`, `Version 2.` + segmentEnd},
	} {
		if got := encodeStream([]string{c.seg}); got != c.want {
			t.Errorf("encodeStream(%q)\n got %q\nwant %q", c.seg, got, c.want)
		}
	}
}

// Whatever encodeStream writes, decodeStream reads back unchanged (apart
// from spans widened to whole words, not used here).
func TestStreamRoundTrip(t *testing.T) {
	segs := []string{
		`a\b [c] ^d$ @e /f &lt;g&gt; {h} *i ~j` + "\tk\nl",
		`The <g id="1">red</g> car is <g id="2">very fast</g> today.`,
		`<g id="1"><g id="2">Nested</g> bold <g id="3">and</g> more</g> text`,
		`<g id="1">a<x id="2"/>b</g> <x id="3"/><x id="4"/> c`,
		`  padded  `,
		``,
		`Ends with a period.`,
		`a marker [&lt;s&gt;] in text, and .[] too`,
		"\nleading newline",
	}
	out := decodeStream(encodeStream(segs), nil)
	if len(out) != len(segs) {
		t.Fatalf("%d segments back for %d", len(out), len(segs))
	}
	for i, d := range out {
		if got := tagged.Render(d.toks); got != segs[i] {
			t.Errorf("segment %d\n got %q\nwant %q", i, got, segs[i])
		}
	}
}

// Apertium splits a span over several words into one blank per word, may
// join blanks on a word, and writes words its rules insert and some
// punctuation without one; decodeStream makes one span of the pieces of a
// code and what came between them, and drops the period and empty
// superblank of the segment end.
func TestDecodeStreamMergesPieces(t *testing.T) {
	out := decodeStream("El coche [[t:g:1]]rojo[[/]] es [[t:g:2]]muy[[/]] [[t:g:2]]rápidamente[[/]] hoy..[][<s>]\n"+
		"[[t:g:3]]a[[/]][<x 5>][[t:g:3]]b[[/]] [[t:g:3; t:g:4]]c[[/]][[t:g:3]]d[[/]] e.[][<s>]\n"+
		"\\[x\\] y\\/z.[][<s>]\n"+
		"[[t:g:1]]Lucene[[/]]\\/[[t:g:1]]Solr[[/]] [[t:g:1]]Estudios[[/]] de [[t:g:1]]caso[[/]][<x 3>] x.[][<s>]\n", nil)
	want := []string{
		`El coche <g id="1">rojo</g> es <g id="2">muy rápidamente</g> hoy.`,
		`<g id="3">a<x id="5"/>b <g id="4">c</g>d</g> e`,
		`[x] y/z`,
		`<g id="1">Lucene/Solr Estudios de caso</g><x id="3"/> x`,
	}
	if len(out) != len(want) {
		t.Fatalf("%d segments, want %d", len(out), len(want))
	}
	for i := range want {
		if got := tagged.Render(out[i].toks); got != want[i] {
			t.Errorf("segment %d = %q, want %q", i, got, want[i])
		}
	}
}

// The reserved characters survive real Apertium as text.
func TestReservedCharactersThroughApertium(t *testing.T) {
	seg := `The file a\b [c] ^d$ @e /f &lt;g&gt; {h} *i ~j is <g id="1">here</g>.`
	res, err := newEngine("", "").Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Segments: []string{seg, "The dog."}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Segments[0]
	for _, s := range []string{`\`, `[c]`, `^`, `$`, `@`, `/f`, `&lt;g&gt;`, `{h}`, `*i`, `~j`, `<g id="1">aquí</g>`} {
		if !strings.Contains(got, s) {
			t.Errorf("%q lost from %q", s, got)
		}
	}
	if res.Segments[1] != "El perro." {
		t.Errorf("second segment %q", res.Segments[1])
	}
}

// Run without -u, Apertium marks the words it does not know; the decoder
// takes the marks out and notes the words, and leaves the text's own
// escaped "*" and "@" as they are.
func TestDecodeStreamNotesUnknownWords(t *testing.T) {
	out := decodeStream("El *frobnicator [[t:g:1]]*zorbles[[/]] con **i y \\@*e de @Qwerty-uiop #bla.[][<s>]\n\\@El perro.[][<s>]\n",
		func(i int) bool { return i == 0 })
	if len(out) != 2 {
		t.Fatalf("%d segments", len(out))
	}
	if got, want := tagged.Render(out[0].toks), `El frobnicator <g id="1">zorbles</g> con *i y @e de Qwerty-uiop bla`; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if got := tagged.Render(out[1].toks); got != "El perro" {
		t.Errorf("text %q: an escaped @ mark where the source has none is a mark", got)
	}
	if !slices.Equal(out[0].unknown, []string{"frobnicator", "zorbles", "*i", "e", "Qwerty-uiop", "bla"}) || !slices.Equal(out[1].unknown, []string{"El"}) {
		t.Errorf("unknown words %q, %q", out[0].unknown, out[1].unknown)
	}
}

// Apertium marks each part of a hyphenated word it does not know; a date
// or a telephone number comes back as written, and is no unknown word.
func TestDecodeStreamUnmarksHyphenatedParts(t *testing.T) {
	out := decodeStream("تاریخ *2024-*03-*15 اور فون *011-*2345-*6789 *foo-*bar.[][<s>]\n", func(int) bool { return true })
	if len(out) != 1 {
		t.Fatalf("%d segments", len(out))
	}
	if got, want := tagged.Render(out[0].toks), "تاریخ 2024-03-15 اور فون 011-2345-6789 foo-bar"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if !slices.Equal(out[0].unknown, []string{"foo-bar"}) {
		t.Errorf("unknown words %q, want only foo-bar", out[0].unknown)
	}
}

// Through real Apertium: the unknown words come back as notes, without
// marks in the text, and the segment's repairs as notes too (never as
// warnings naming a segment of the batch).
func TestUnknownWordsThroughApertium(t *testing.T) {
	res, err := newEngine("", "").Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es",
		Segments: []string{"The dog sleeps.", "The frobnicator zorbles quickly."}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(res.Segments[1], "*@") || !strings.Contains(res.Segments[1], "frobnicator") {
		t.Errorf("segment %q", res.Segments[1])
	}
	if len(res.Notes) != 1 || res.Notes[0].Segment != 1 || !slices.Equal(res.Notes[0].Unknown, []string{"frobnicator", "zorbles"}) {
		t.Errorf("notes %+v", res.Notes)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "segment") {
			t.Errorf("warning %q names a segment", w)
		}
	}
}
