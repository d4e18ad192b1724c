package main

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// Apertium's HTML deformatter keeps tags in place but treats tags it does
// not know (such as <g>) as block boundaries, capitalising the next word.
// So inline codes travel as HTML inline elements, and each segment as a
// paragraph:
//
//	<g id="N">…</g>  →  <span data-g="N">…</span>
//	<x id="N"/>      →  <br data-x="N">
//	segment          →  <p>…</p>

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// encodeBatch writes segments as one HTML document for one apertium call.
func encodeBatch(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteString("<p>")
		for _, t := range segment.Tokenize(s) {
			switch t.Kind {
			case segment.Text:
				b.WriteString(htmlEscaper.Replace(t.Text))
			case segment.Open:
				fmt.Fprintf(&b, `<span data-g="%d">`, t.ID)
			case segment.Close:
				b.WriteString("</span>")
			case segment.Place:
				fmt.Fprintf(&b, `<br data-x="%d">`, t.ID)
			}
		}
		b.WriteString("</p>\n")
	}
	return b.String()
}

var tagRE = regexp.MustCompile(`<(/?)(p|span|br)\b([^>]*)>`)
var idRE = regexp.MustCompile(`data-[gx]="(\d+)"`)

// decodeBatch splits apertium's output back into segments of tokens.
func decodeBatch(out string) [][]segment.Token {
	var segs [][]segment.Token
	var cur []segment.Token
	in := false
	text := func(s string) {
		if !in || s == "" {
			return
		}
		s = html.UnescapeString(s)
		if n := len(cur); n > 0 && cur[n-1].Kind == segment.Text {
			cur[n-1].Text += s
			return
		}
		cur = append(cur, segment.Token{Kind: segment.Text, Text: s})
	}
	last := 0
	for _, m := range tagRE.FindAllStringSubmatchIndex(out, -1) {
		text(out[last:m[0]])
		last = m[1]
		closing := out[m[2]:m[3]] == "/"
		name := out[m[4]:m[5]]
		id := -1
		if sub := idRE.FindStringSubmatch(out[m[6]:m[7]]); sub != nil {
			id, _ = strconv.Atoi(sub[1])
		}
		switch {
		case name == "p" && !closing:
			in, cur = true, nil
		case name == "p":
			if in {
				segs = append(segs, cur)
			}
			in = false
		case !in:
		case name == "span" && !closing:
			cur = append(cur, segment.Token{Kind: segment.Open, ID: id})
		case name == "span":
			cur = append(cur, segment.Token{Kind: segment.Close})
		case name == "br":
			cur = append(cur, segment.Token{Kind: segment.Place, ID: id})
		}
	}
	return segs
}

// repair makes the translated tokens carry exactly the source's codes,
// each around some of the text it formatted: span boundaries Apertium
// pushed to the edge of a word go back inside it (fitSubwordSpans), and
// segment.Repair drops duplicated and unknown codes and restores the spans
// Apertium dropped or emptied (it drops those over punctuation alone, such
// as "<" or "®") around the same text, so the format adapter never loses
// markup or formatting.
func repair(source string, toks []segment.Token) (string, []string) {
	out, warns := segment.Repair(source, segment.Render(fitSubwordSpans(source, toks)))
	return tidySpace(source, out), warns
}

var spaceRun = regexp.MustCompile(`  +`)

// tidySpace gives the translation the source's leading and trailing
// whitespace and removes the double spaces Apertium writes after some
// punctuation, unless the source had double spaces itself.
func tidySpace(source, target string) string {
	if strings.TrimSpace(source) == "" && strings.TrimSpace(target) == "" {
		return source
	}
	if !strings.Contains(source, "  ") {
		target = spaceRun.ReplaceAllString(target, " ")
	}
	lead := source[:len(source)-len(strings.TrimLeft(source, " \t\n"))]
	trail := source[len(strings.TrimRight(source, " \t\n")):]
	return lead + strings.Trim(target, " \t\n") + trail
}
