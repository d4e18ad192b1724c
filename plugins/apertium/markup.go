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

// repair makes the translated tokens carry exactly the source's codes:
// a span Apertium duplicated while reordering keeps its first occurrence,
// unknown ids are dropped, and codes that went missing are put back at the
// end (with a warning), so that the format adapter never loses markup.
func repair(source string, toks []segment.Token) (string, []string) {
	want := map[int]segment.TokenKind{}
	var order []int
	for _, t := range segment.Tokenize(source) {
		if t.Kind == segment.Open || t.Kind == segment.Place {
			want[t.ID] = t.Kind
			order = append(order, t.ID)
		}
	}
	seen := map[int]bool{}
	var out []segment.Token
	var stack []bool // per open span: kept?
	for _, t := range toks {
		switch t.Kind {
		case segment.Text:
			out = append(out, t)
		case segment.Open:
			keep := want[t.ID] == segment.Open && !seen[t.ID]
			stack = append(stack, keep)
			if keep {
				seen[t.ID] = true
				out = append(out, t)
			}
		case segment.Close:
			if len(stack) == 0 {
				continue
			}
			keep := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if keep {
				out = append(out, t)
			}
		case segment.Place:
			if want[t.ID] == segment.Place && !seen[t.ID] {
				seen[t.ID] = true
				out = append(out, t)
			}
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] {
			out = append(out, segment.Token{Kind: segment.Close})
		}
	}
	var missing []string
	for _, id := range order {
		if seen[id] {
			continue
		}
		missing = append(missing, strconv.Itoa(id))
		out = append(out, segment.Token{Kind: want[id], ID: id})
		if want[id] == segment.Open {
			out = append(out, segment.Token{Kind: segment.Close})
		}
	}
	var warnings []string
	if len(missing) > 0 {
		warnings = append(warnings, fmt.Sprintf("apertium dropped inline code(s) %s; re-attached at the segment end", strings.Join(missing, ", ")))
	}
	return tidySpace(source, segment.Render(out)), warnings
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
