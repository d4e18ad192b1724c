package review

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestScoreAndToCheck(t *testing.T) {
	low := Flag{Kind: Route, Severity: Low, Message: "."}
	med := Flag{Kind: Length, Severity: Medium, Message: "."}
	high := Flag{Kind: Numbers, Severity: High, Message: "."}
	if Score(nil) != 0 || ToCheck(nil) {
		t.Error("no flag, something to check")
	}
	if ToCheck([]Flag{low, low, low}) {
		t.Error("low flags alone make a sentence to check")
	}
	if !ToCheck([]Flag{med}) || !ToCheck([]Flag{high}) {
		t.Error("a medium or high flag does not make a sentence to check")
	}
	if !(Score([]Flag{high, med}) > Score([]Flag{high}) && Score([]Flag{high}) > Score([]Flag{med})) {
		t.Error("more and stronger evidence does not score higher")
	}
}

func TestTallyAndSentences(t *testing.T) {
	var tally Tally
	var wg sync.WaitGroup
	link := Flag{Kind: Links, Severity: Medium, Message: "x."}
	num := Flag{Kind: Numbers, Severity: High, Message: "y."}
	for i := range 412 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch {
			case i < 3:
				tally.Add([]Flag{link, link})
			case i < 7:
				tally.Add([]Flag{num})
			default:
				tally.Add(nil)
			}
		}()
	}
	wg.Wait()
	tally.Document(*PagesFlag(2, 3))
	s := tally.Summary()
	if s.Text() != "7 of 412 sentences to check" {
		t.Errorf("summary %q", s.Text())
	}
	if s.ByKind[Links] != 3 || s.ByKind[Numbers] != 4 {
		t.Errorf("by kind %v", s.ByKind)
	}
	got := s.Sentences()
	want := []string{"7 of 412 sentences to check.", "4 sentences have numbers or dates that differ from the original.",
		"3 sentences lost a link, which was put back where it most likely belongs.",
		"The translation has 3 pages where the original has 2: check page breaks and fixed layouts."}
	if !slices.Equal(got, want) {
		t.Errorf("sentences\n%q\nwant\n%q", got, want)
	}
	for _, w := range got {
		if strings.Contains(w, "segment") || strings.Contains(w, "code ") {
			t.Errorf("an internal word in %q", w)
		}
	}
	var empty Tally
	empty.Add(nil)
	if e := empty.Summary(); e.Text() != "nothing to check in 1 sentence" || len(e.Sentences()) != 0 {
		t.Errorf("empty: %q %q", e.Text(), e.Sentences())
	}
}

func TestNumbersAreCompared(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"1,234.50 and 1.234,50", []string{"123450", "123450"}},
		{"١٢٣٤٫٥", []string{"12345"}},
		{"०७ and 3 4", []string{"7", "3", "4"}},
		{"1\u00a0234\u202f567 (NBSP groups)", []string{"1234567"}},
		{"end 5.", []string{"5"}},
	} {
		if got := numbers(c.text); !slices.Equal(got, c.want) {
			t.Errorf("numbers(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestOverflowOnTheRendition(t *testing.T) {
	// pdftotext's text of a page: the text box shows its first two lines.
	out := NewRendition("Intro paragraph.\nLong text BOXOMEGA\nbegins and goes on and\nBetween ONE.\n\fPage two\n\f")
	if out.Pages != 2 {
		t.Errorf("%d pages, want 2", out.Pages)
	}
	fits := []Fit{
		{Container: TextBox, Target: []string{"Long text BOXOMEGA begins ", "and goes on and on, TAILWORD ends."}},
		{Container: TextBox, Target: []string{"Intro paragraph."}},           // all there
		{Container: TableRow, Target: []string{"Nothing of this is there."}}, // cannot be found: no verdict
	}
	if got := Overflowing(out, nil, fits); !slices.Equal(got, []int{1, -1, -1}) {
		t.Errorf("overflowing %v, want [1 -1 -1]", got)
	}
	// The original was cut off in its own rendition too: not the translation's doing.
	src := NewRendition("Short BOX\n")
	fits[0].Source = []string{"Short BOX text that was already too long."}
	if got := Overflowing(out, src, fits[:1]); got[0] != -1 {
		t.Errorf("an original already cut off counted: %v", got)
	}
	// Ligatures and Arabic presentation forms in a PDF's text are the same words.
	ar := NewRendition("ﻣﺮﺣﺒﺎ efﬁcient")
	if got := Overflowing(ar, nil, []Fit{{Container: Frame, Target: []string{"مرحبا efficient"}}}); got[0] != -1 {
		t.Errorf("presentation forms not folded: %v", got)
	}
	if PagesFlag(3, 3) != nil || PagesFlag(0, 4) != nil || PagesFlag(2, 3) == nil {
		t.Error("pages flag")
	}
}
