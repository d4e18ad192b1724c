package main

import (
	"slices"
	"strings"
	"unicode"
)

// unmark takes the marks out of a piece of Apertium's output (escaped:
// one escaped character), noting the words they mark: run without -u,
// Apertium writes "*word" for a word its analyser does not know, "@word"
// for one its bilingual dictionary lacks and "#word" for one it could not
// generate. A mark stands before a word; the text's own "*", "@" and "#"
// go in escaped or as superblanks (encodeStream) and come out escaped, or
// unescaped but apart from a word (" * ").
func (d *decoder) unmark(s string, escaped bool) string {
	var b strings.Builder
	for _, r := range s {
		if d.held != 0 {
			if markedRune(r) {
				d.marked, d.word = true, d.word[:0]
			} else {
				b.WriteRune(d.held)
			}
			d.held = 0
		}
		switch {
		case !escaped && !d.marked && (r == '*' || r == '@' || r == '#') && !wordRune(d.prev):
			d.held, d.prev = r, r
			continue
		case d.marked && d.prev == '-' && (r == '*' || r == '@' || r == '#'):
			// Apertium marks each part of a hyphenated word it does not
			// know ("*2024-*03-*15"): the parts' marks go too.
			continue
		case d.marked && markedRune(r):
			d.word = append(d.word, r)
		case d.marked:
			d.endWord()
		}
		b.WriteRune(r)
		d.prev = r
	}
	return b.String()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// markedRune is a character of a marked word.
func markedRune(r rune) bool { return wordRune(r) || strings.ContainsRune("-'’*@#_", r) }

// endWord notes the marked word read.
func (d *decoder) endWord() {
	if d.held != 0 { // a mark at the very end is the text's own
		d.pending = appendText(d.pending, string(d.held))
		d.held = 0
	}
	if !d.marked {
		return
	}
	d.marked = false
	// A number, a date or a code is nobody's unknown word: no note.
	if w := strings.TrimRight(string(d.word), "-'’"); strings.IndexFunc(w, unicode.IsLetter) >= 0 && !slices.Contains(d.unknown, w) {
		d.unknown = append(d.unknown, w)
	}
}
