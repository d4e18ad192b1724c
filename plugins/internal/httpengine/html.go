package httpengine

import (
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// ToHTML writes tagged text as HTML that translation services keep:
// <g id="N">…</g> becomes <span id="gN">…</span>, <x id="N"/> becomes
// <br id="xN">. Text stays escaped.
func ToHTML(seg string) string {
	var b strings.Builder
	for _, t := range tagged.Tokenize(seg) {
		if t.Kind == tagged.Text {
			b.WriteString(html.EscapeString(t.Text))
		} else {
			writeCode(&b, t)
		}
	}
	return b.String()
}

// writeCode writes an inline code as the HTML ToHTML makes of it.
func writeCode(b *strings.Builder, t tagged.Token) {
	switch t.Kind {
	case tagged.Open:
		b.WriteString(`<span id="g` + strconv.Itoa(t.ID) + `">`)
	case tagged.Close:
		b.WriteString(`</span>`)
	case tagged.Place:
		b.WriteString(`<br id="x` + strconv.Itoa(t.ID) + `">`)
	}
}

var htmlTag = regexp.MustCompile(`(?i)<(/?)\s*(span|br)\b([^>]*)>`)
var htmlID = regexp.MustCompile(`(?i)\bid\s*=\s*["']?([gx])(\d+)`)

// FromHTML reads a service's HTML answer back as tagged text. Tags it did
// not send are dropped with their markup (their text is kept); codes it
// broke are left for the host's repair at assembly.
func FromHTML(s string) string {
	var w tagged.Builder
	var open []bool // per <span>: did it carry one of our ids
	text := func(t string) {
		t = stripTags(t)
		if t != "" {
			w.Text(html.UnescapeString(t))
		}
	}
	pos := 0
	for _, m := range htmlTag.FindAllStringSubmatchIndex(s, -1) {
		text(s[pos:m[0]])
		pos = m[1]
		closing := m[3] > m[2]
		name := strings.ToLower(s[m[4]:m[5]])
		attrs := s[m[6]:m[7]]
		id := htmlID.FindStringSubmatch(attrs)
		switch {
		case name == "span" && closing:
			if n := len(open); n > 0 {
				if open[n-1] {
					w.Close()
				}
				open = open[:n-1]
			}
		case name == "span":
			ours := id != nil && strings.EqualFold(id[1], "g")
			if ours {
				n, _ := strconv.Atoi(id[2])
				w.Open(n)
			}
			open = append(open, ours)
		case name == "br" && id != nil && strings.EqualFold(id[1], "x"):
			n, _ := strconv.Atoi(id[2])
			w.Place(n)
		}
	}
	text(s[pos:])
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] {
			w.Close()
		}
	}
	return w.String()
}

var anyTag = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return anyTag.ReplaceAllString(s, "")
}
