package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

func TestPairsFromModes(t *testing.T) {
	pairs, modes := pairsFromModes([]string{"eng-spa", "spa-eng", "spa-eng_US", "eng-cat_valencia", "eco-es-fr", "en-gl", "gl-en", "fr-es", "eng-cat", "xyz-eng",
		"eng-cat_valencia_uni", "es-pt_BR", "zlm-ind", "hbs-eng", "eng-hbs_SR", "eng-hbs", "hbs-mkd-pretransfer", "nno-nno_e", "oc_aran-ca", "fra-oci_gascon"})
	want := map[sdk.Pair]string{
		{Source: "en", Target: "es"}: "eng-spa", {Source: "es", Target: "en"}: "spa-eng",
		{Source: "en", Target: "gl"}: "en-gl", {Source: "gl", Target: "en"}: "gl-en",
		{Source: "fr", Target: "es"}: "fr-es", {Source: "en", Target: "ca"}: "eng-cat",
		// The variants a registry entry names (issue 22 §1), Serbo-Croatian
		// read as any of its standards, Malay under its registry code.
		{Source: "en", Target: "ca-valencia"}: "eng-cat_valencia", {Source: "es", Target: "pt-BR"}: "es-pt_BR",
		{Source: "ms", Target: "id"}: "zlm-ind", {Source: "en", Target: "sh"}: "eng-hbs", {Source: "en", Target: "sr"}: "eng-hbs_SR",
		{Source: "sh", Target: "en"}: "hbs-eng", {Source: "hr", Target: "en"}: "hbs-eng", {Source: "bs", Target: "en"}: "hbs-eng",
		{Source: "sr", Target: "en"}: "hbs-eng", {Source: "oc-aranes", Target: "ca"}: "oc_aran-ca", {Source: "fr", Target: "oc-gascon"}: "fra-oci_gascon",
	}
	if len(pairs) != len(want) {
		t.Errorf("pairs %v, want %d", pairs, len(want))
	}
	for p, m := range want {
		if modes[p] != m {
			t.Errorf("%v served by %q, want %q", p, modes[p], m)
		}
	}
}

func TestCapabilitiesListInstalledPairs(t *testing.T) {
	caps, err := newEngine("", "").Capabilities(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	have := map[sdk.Pair]bool{}
	for _, p := range caps.Pairs {
		have[p] = true
	}
	for _, p := range []sdk.Pair{{Source: "en", Target: "es"}, {Source: "es", Target: "en"}, {Source: "en", Target: "ca"}, {Source: "en", Target: "gl"}, {Source: "fr", Target: "es"}} {
		if !have[p] {
			t.Errorf("installed pair %v missing from %v", p, caps.Pairs)
		}
	}
}

var codeRE = regexp.MustCompile(`<g id="\d+">|</g>|<x id="\d+"/>`)

func codes(s string) []string {
	c := codeRE.FindAllString(s, -1)
	var out []string
	for _, x := range c {
		if x != "</g>" {
			out = append(out, x)
		}
	}
	return out
}

func TestTranslateBatchKeepsCodes(t *testing.T) {
	segs := []string{
		`The <g id="1">big dog</g> eats<x id="2"/> the red apple.`,
		`Hello <g id="3">world</g>. I have a house.`,
		`<g id="4"><g id="5">Nested</g> bold text</g> and Tom &amp; Jerry &lt;3`,
		``,
		`Click <g id="6">here</g> to open the file.`,
	}
	res, err := newEngine("", "").Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Mode: sdk.Full, Segments: segs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Segments) != len(segs) {
		t.Fatalf("%d segments back for %d", len(res.Segments), len(segs))
	}
	for i, out := range res.Segments {
		if len(codes(out)) != len(codes(segs[i])) {
			t.Errorf("segment %d codes %v, want %v: %s", i, codes(out), codes(segs[i]), out)
		}
		if strings.Count(out, "<g ") != strings.Count(out, "</g>") {
			t.Errorf("segment %d unbalanced: %s", i, out)
		}
		for _, c := range codes(segs[i]) {
			if strings.Count(out, c) != 1 {
				t.Errorf("segment %d: %s appears %d times: %s", i, c, strings.Count(out, c), out)
			}
		}
	}
	for i, want := range []string{"perro", "casa", "", "", "abrir"} {
		if !strings.Contains(strings.ToLower(res.Segments[i]), want) {
			t.Errorf("segment %d = %q, want Spanish word %q", i, res.Segments[i], want)
		}
	}
	if res.Segments[3] != "" {
		t.Errorf("empty segment became %q", res.Segments[3])
	}
	if !strings.Contains(res.Segments[2], "&amp;") || !strings.Contains(res.Segments[2], "&lt;3") {
		t.Errorf("escaping lost: %s", res.Segments[2])
	}
	t.Logf("%q", res.Segments)
}

// Inline codes must not change the translation: with <g> as word-bound
// blanks and <x/> as superblanks, Apertium translates tagged sentences like
// untagged ones (with raw <g>/<x> tags it capitalises after every tag and
// splits sentences).
func TestCodesDoNotChangeTranslation(t *testing.T) {
	var plain, taggedSegs []string
	for _, s := range sentences {
		plain = append(plain, s)
		w := strings.Fields(s)
		w[1] = `<g id="1">` + w[1]
		w[2] += `</g>`
		w[4] += `<x id="2"/>`
		taggedSegs = append(taggedSegs, strings.Join(w, " "))
	}
	e := newEngine("", "")
	a, err := e.Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Segments: plain})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Segments: taggedSegs})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	norm := func(s string) string { return strings.Join(strings.Fields(tagged.Plain(s)), " ") }
	for i := range a.Segments {
		if norm(a.Segments[i]) == norm(b.Segments[i]) {
			same++
		} else {
			t.Logf("differs:\n  %s\n  %s", a.Segments[i], b.Segments[i])
		}
	}
	t.Logf("%d/%d tagged sentences translate exactly like untagged", same, len(sentences))
	if same < len(sentences)*8/10 {
		t.Errorf("only %d/%d tagged sentences translate like untagged ones", same, len(sentences))
	}
}

// A batch far bigger than a pipe buffer goes through one call without
// deadlocking, and comes back in order.
func TestLargeBatch(t *testing.T) {
	var segs []string
	for i := range 1000 {
		segs = append(segs, fmt.Sprintf(`%s <x id="%d"/>`, sentences[i%len(sentences)], i))
	}
	res, err := newEngine("", "").Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Segments: segs})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Segments {
		if !strings.Contains(s, fmt.Sprintf(`<x id="%d"/>`, i)) {
			t.Fatalf("segment %d out of order or lost its code: %s", i, s)
		}
	}
}

func TestRepairDuplicatedAndMissingCodes(t *testing.T) {
	src := `<g id="1">a</g> b <x id="2"/> c <g id="3">d</g>`
	toks := []tagged.Token{
		{Kind: tagged.Open, ID: 1}, {Kind: tagged.Text, Text: "A"}, {Kind: tagged.Close},
		{Kind: tagged.Text, Text: " B "},
		{Kind: tagged.Open, ID: 1}, {Kind: tagged.Text, Text: "again"}, {Kind: tagged.Close},
		{Kind: tagged.Place, ID: 9},
	}
	out, warns := repair(src, toks)
	// the missing span covers a word: an empty one would lose its formatting
	want := `<g id="1">A</g> B <g id="3">again</g><x id="2"/>`
	if out != want {
		t.Errorf("repair = %q, want %q", out, want)
	}
	if len(warns) != 4 { // duplicate, unknown, two missing
		t.Errorf("warnings %v", warns)
	}
}

func TestUnknownPair(t *testing.T) {
	_, err := newEngine("", "").Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "ja", Segments: []string{"x"}})
	if err == nil || !strings.Contains(err.Error(), "en→ja") {
		t.Errorf("err = %v", err)
	}
}

var sentences = []string{
	"The committee approved the new budget for the next year.",
	"Please read the instructions carefully before you start the machine.",
	"Our company sells software to small businesses in many countries.",
	"The river flows through the old town and into the sea.",
	"She wrote a long letter to her brother in the city.",
	"The results of the study were published in a scientific journal.",
	"You can download the file from our website at any time.",
	"The weather was cold and the streets were empty.",
	"We need more information about the project and its costs.",
	"This document describes the main features of the system.",
}
