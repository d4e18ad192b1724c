package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Segments travel to `apertium -f none` in Apertium's own stream format,
// the pipeline of plain text without a deformatter, so formatting costs
// next to nothing:
//
//	text                  escaped: \ [ ] ^ $ @ / < > { } * take a backslash
//	<g id="A"><g id="B">  a word-bound blank around each run of text they
//	                      wrap, outermost first: [[t:g:A; t:g:B]]run[[/]];
//	                      Apertium keeps it on the word through reordering
//	<x id="N"/>           a superblank [<x N>], which stays between words
//	~ tab newline         superblanks too, as apertium-destxt writes them
//	segment end           .[][<s>] and a newline: the period and empty
//	                      superblank force a sentence break, the marker
//	                      splits the output; a segment that ends its
//	                      own sentence (". ! ?" after a word) needs no
//	                      period of ours and ends with [<s>] alone, so
//	                      Apertium translates no more tokens than in
//	                      the plain text (the extra period cost about
//	                      12 % of its time on ordinary prose)
//
// A word-bound blank must wrap whole words (inside a word it splits the
// word in two), so a span that begins or ends inside a word wraps all of
// it here and fitSubwordSpans puts the boundary back afterwards.

const segmentEnd = ".[][<s>]\n"

// sentenceEnd ends a segment whose own last token ends a sentence.
const sentenceEnd = "[<s>]\n"

// endsSentence says whether a tagged segment ends with ". ! or ?" right
// after a word that has no other period (not "U.S." or "e.g.", which
// Apertium may read as abbreviations rather than a sentence end).
func endsSentence(s string) bool {
	n := len(s)
	if n < 2 || (s[n-1] != '.' && s[n-1] != '!' && s[n-1] != '?') {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:n-1])
	if !unicode.IsLetter(r) {
		return false
	}
	word := s[strings.LastIndexAny(s[:n-1], " >\t\n~")+1 : n-1]
	return !strings.Contains(word, ".")
}

var streamEscaper = strings.NewReplacer(
	`\`, `\\`, `[`, `\[`, `]`, `\]`, `^`, `\^`, `$`, `\$`, `@`, `\@`, `/`, `\/`,
	`<`, `\<`, `>`, `\>`, `{`, `\{`, `}`, `\}`, `*`, `\*`,
)

// superblankRune are characters Apertium must not see as text: the
// transfer drops "~" from words, tabs and newlines are formatting, and a
// "#" in the output marks a word Apertium could not generate.
func superblankRune(r rune) bool { return r == '~' || r == '\t' || r == '\n' || r == '\r' || r == '#' }

// encodeStream writes segments as one stream for one apertium call.
func encodeStream(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		encodeSegment(&b, s)
		if endsSentence(s) {
			b.WriteString(sentenceEnd)
		} else {
			b.WriteString(segmentEnd)
		}
	}
	return b.String()
}

// encodeSegment writes one segment's text and codes.
func encodeSegment(b *strings.Builder, s string) {
	var runes []rune
	var stacks [][]int        // the open codes around each rune, outermost first
	places := map[int][]int{} // isolated codes by the rune offset they precede
	var stack []int
	for _, t := range tagged.Tokenize(s) {
		switch t.Kind {
		case tagged.Text:
			for _, r := range t.Text {
				runes = append(runes, r)
				stacks = append(stacks, stack)
			}
		case tagged.Open:
			stack = append(slices.Clip(stack), t.ID)
		case tagged.Close:
			if n := len(stack); n > 0 {
				stack = stack[: n-1 : n-1]
			}
		case tagged.Place:
			places[len(runes)] = append(places[len(runes)], t.ID)
		}
	}
	widenToWords(runes, stacks, places)

	var open []int // the codes of the word-bound blank being written
	inPiece := false
	end := func() {
		if inPiece {
			b.WriteString("[[/]]")
			inPiece = false
		}
	}
	for i := 0; i <= len(runes); i++ {
		if ids := places[i]; len(ids) > 0 {
			end()
			for _, id := range ids {
				fmt.Fprintf(b, "[<x %d>]", id)
			}
		}
		if i == len(runes) {
			break
		}
		r := runes[i]
		if superblankRune(r) {
			end()
			b.WriteString("[" + string(r) + "]")
			continue
		}
		if inPiece && !slices.Equal(open, stacks[i]) {
			end()
		}
		if !inPiece && len(stacks[i]) > 0 {
			open, inPiece = stacks[i], true
			b.WriteString("[[")
			for k, id := range open {
				if k > 0 {
					b.WriteString("; ")
				}
				fmt.Fprintf(b, "t:g:%d", id)
			}
			b.WriteString("]]")
		}
		b.WriteString(streamEscaper.Replace(string(r)))
	}
	end()
}

// widenToWords gives every letter of a word the codes of any part of it,
// so that no word-bound blank begins or ends inside a word. An isolated
// code splits a word anyway, so it counts as a word boundary.
func widenToWords(runes []rune, stacks [][]int, places map[int][]int) {
	for ws := 0; ws < len(runes); {
		if !isWord(runes[ws]) {
			ws++
			continue
		}
		we := ws + 1
		for we < len(runes) && isWord(runes[we]) && len(places[we]) == 0 {
			we++
		}
		var union []int
		same := true
		for k := ws; k < we; k++ {
			if !slices.Equal(stacks[k], stacks[ws]) {
				same = false
			}
			for _, id := range stacks[k] {
				if !slices.Contains(union, id) {
					union = append(union, id)
				}
			}
		}
		if !same {
			for k := ws; k < we; k++ {
				stacks[k] = union
			}
		}
		ws = we
	}
}

// decodeStream splits apertium's output at the segment markers into
// tokens. Apertium writes a word-bound blank on every word of a span, but
// none on words its transfer rules insert ("de") or on some punctuation,
// so the pieces of one code become one span again with whatever came
// between them.
//
// atIsText(i) says whether segment i's source has an "@" of its own (nil:
// every one may).
func decodeStream(out string, atIsText func(int) bool) []decoded {
	var segs []decoded
	d := &decoder{}
	var piece []int // codes of the word-bound blank being read, nil outside
	for len(out) > 0 {
		c := out[0]
		switch {
		case c == '\\' && len(out) > 1:
			r, n := utf8.DecodeRuneInString(out[1:])
			// Some pairs escape their "@" marks: one is text only where
			// the source has an "@" of its own.
			literal := r != '@' || atIsText == nil || atIsText(len(segs))
			d.text(d.unmark(out[1:1+n], literal), piece)
			out = out[1+n:]
		case strings.HasPrefix(out, "[["):
			end := blankEnd(out, 2, "]]")
			body := out[2:end]
			out = out[min(end+2, len(out)):]
			if body == "/" {
				piece = nil
			} else {
				piece = wordBoundIDs(body)
			}
		case c == '[':
			end := blankEnd(out, 1, "]")
			body := out[1:end]
			out = out[min(end+1, len(out)):]
			switch {
			case body == "<s>":
				segs = append(segs, d.finish())
				d = &decoder{skipNewline: true}
				piece = nil
			case body == "":
				d.sentenceBreak()
			case strings.HasPrefix(body, "<x ") && strings.HasSuffix(body, ">"):
				if id, err := strconv.Atoi(body[3 : len(body)-1]); err == nil {
					d.place(id)
				}
			default:
				d.text(unescapeStream(body), nil)
			}
		default:
			k := strings.IndexAny(out, `\[`)
			if k < 0 {
				k = len(out)
			}
			if k == 0 { // a lone trailing backslash
				k = 1
			}
			d.text(d.unmark(out[:k], false), piece)
			out = out[k:]
		}
	}
	return segs
}

// blankEnd is the offset of the unescaped closing delimiter of a blank
// that starts at out[from:], or len(out).
func blankEnd(out string, from int, delim string) int {
	for i := from; i < len(out); i++ {
		if out[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(out[i:], delim) {
			return i
		}
	}
	return len(out)
}

func unescapeStream(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// wordBoundIDs reads "t:g:1; t:g:2" (Apertium may join the blanks of
// words it merged the same way) into code ids, outermost first.
func wordBoundIDs(body string) []int {
	var ids []int
	for _, part := range strings.Split(body, ";") {
		part = strings.TrimSpace(part)
		if rest, ok := strings.CutPrefix(part, "t:g:"); ok {
			if id, err := strconv.Atoi(rest); err == nil && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// decoder builds one segment's tokens. Text outside word-bound blanks and
// isolated codes are held back until the next piece shows which spans go
// on over them.
type decoder struct {
	out         []tagged.Token
	open        []int
	pending     []tagged.Token
	skipNewline bool

	unknown []string // words Apertium marked as unknown to it
	marked  bool     // reading a marked word
	word    []rune
	held    rune // a possible mark, until the next character tells
	prev    rune // the last character of text read
}

// decoded is one segment of Apertium's output.
type decoded struct {
	toks    []tagged.Token
	unknown []string // the words it marked: unknown to its analyser (*), or to its bilingual dictionary (@)
}

func (d *decoder) text(s string, piece []int) {
	if d.skipNewline {
		d.skipNewline = false
		if strings.HasPrefix(s, "\n") && len(d.out) == 0 && len(d.pending) == 0 {
			s = s[1:]
		}
	}
	if s == "" {
		return
	}
	if piece == nil {
		d.pending = appendText(d.pending, s)
		return
	}
	keep := 0
	for keep < len(d.open) && keep < len(piece) && d.open[keep] == piece[keep] {
		keep++
	}
	for len(d.open) > keep {
		d.out = append(d.out, tagged.Token{Kind: tagged.Close, ID: d.open[len(d.open)-1]})
		d.open = d.open[:len(d.open)-1]
	}
	d.flushPending()
	for _, id := range piece[keep:] {
		if slices.Contains(d.open, id) {
			continue
		}
		d.out = append(d.out, tagged.Token{Kind: tagged.Open, ID: id})
		d.open = append(d.open, id)
	}
	d.out = appendText(d.out, s)
}

func (d *decoder) place(id int) {
	d.skipNewline = false
	d.pending = append(d.pending, tagged.Token{Kind: tagged.Place, ID: id})
}

// sentenceBreak drops the period that was written with the segment end.
func (d *decoder) sentenceBreak() {
	toks := &d.out
	if len(d.pending) > 0 {
		toks = &d.pending
	}
	n := len(*toks)
	if n == 0 || (*toks)[n-1].Kind != tagged.Text {
		return
	}
	t := &(*toks)[n-1]
	t.Text = strings.TrimSuffix(t.Text, ".")
	if t.Text == "" {
		*toks = (*toks)[:n-1]
	}
}

func (d *decoder) flushPending() {
	for _, t := range d.pending {
		if t.Kind == tagged.Text {
			d.out = appendText(d.out, t.Text)
		} else {
			d.out = append(d.out, t)
		}
	}
	d.pending = nil
}

func (d *decoder) finish() decoded {
	for len(d.open) > 0 {
		d.out = append(d.out, tagged.Token{Kind: tagged.Close, ID: d.open[len(d.open)-1]})
		d.open = d.open[:len(d.open)-1]
	}
	d.flushPending()
	d.endWord()
	return decoded{toks: d.out, unknown: d.unknown}
}

func appendText(toks []tagged.Token, s string) []tagged.Token {
	if n := len(toks); n > 0 && toks[n-1].Kind == tagged.Text {
		toks[n-1].Text += s
		return toks
	}
	return append(toks, tagged.Token{Kind: tagged.Text, Text: s})
}
