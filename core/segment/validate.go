package segment

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// TagError is a target a person wrote whose inline codes do not match its
// source's; Tag names the code ("<g id=\"2\">…</g>", "<x id=\"3\"/>", "<").
type TagError struct {
	Tag    string
	Reason string
}

func (e *TagError) Error() string { return e.Tag + ": " + e.Reason }

var tagRe = regexp.MustCompile(`^(?:<g id="(\d+)">|</g>|<x id="(\d+)"/>)`)

// entities are the only ones tagged text uses.
var entities = []string{"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"}

// ValidTarget checks a target written by a person (an edit through the
// API or the dashboard) against its source: tagged text as the source
// writes it (a "<" or "&" of the text escaped), tags balanced, and the
// same paired and isolated codes as the source, each once. codes names
// their types for the message ("a link"); it may be nil.
func ValidTarget(source, target string, codes []Code) error {
	want := map[string]int{}
	for _, t := range tagsOf(source) {
		want[t]++
	}
	typeOf := func(id string) string {
		n, _ := strconv.Atoi(id)
		for _, c := range codes {
			if c.ID == n && c.Type != "" {
				return " (" + c.Type + ")"
			}
		}
		return ""
	}
	var open []string // ids of the <g> open
	got := map[string]int{}
	for i := 0; i < len(target); {
		switch target[i] {
		case '<':
			m := tagRe.FindStringSubmatch(target[i:])
			if m == nil {
				end := strings.IndexByte(target[i:], '>')
				tag := "<"
				if end > 0 && end < 40 {
					tag = target[i : i+end+1]
				}
				return &TagError{Tag: tag, Reason: "not an inline code of this sentence; write a “<” of the text as &lt;"}
			}
			switch {
			case m[1] != "":
				open = append(open, m[1])
				got[`<g id="`+m[1]+`">`]++
			case m[2] != "":
				got[`<x id="`+m[2]+`"/>`]++
			default:
				if len(open) == 0 {
					return &TagError{Tag: "</g>", Reason: "closes no open code"}
				}
				open = open[:len(open)-1]
			}
			i += len(m[0])
		case '&':
			ok := false
			for _, e := range entities {
				if strings.HasPrefix(target[i:], e) {
					ok = true
					i += len(e)
					break
				}
			}
			if !ok {
				return &TagError{Tag: "&", Reason: "write a “&” of the text as &amp;"}
			}
		default:
			i++
		}
	}
	if len(open) > 0 {
		id := open[len(open)-1]
		return &TagError{Tag: `<g id="` + id + `">`, Reason: "is not closed: end it with </g>" + typeOf(id)}
	}
	names := make([]string, 0, len(want)+len(got))
	for t := range want {
		names = append(names, t)
	}
	for t := range got {
		if _, ok := want[t]; !ok {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	for _, t := range names {
		id := t[strings.IndexByte(t, '"')+1 : strings.LastIndexByte(t, '"')]
		switch w, g := want[t], got[t]; {
		case g < w:
			return &TagError{Tag: display(t), Reason: fmt.Sprintf("the original has this code%s and the translation must keep it", typeOf(id))}
		case w == 0:
			return &TagError{Tag: display(t), Reason: "the original has no such code"}
		case g > w:
			return &TagError{Tag: display(t), Reason: fmt.Sprintf("appears %d times; the original has it once", g)}
		}
	}
	return nil
}

// display names a code as a person writes it: a paired code with its end.
func display(t string) string {
	if strings.HasPrefix(t, "<g") {
		return t + "…</g>"
	}
	return t
}

// tagsOf lists the opening and isolated tags of tagged text.
func tagsOf(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '<' {
			continue
		}
		if m := tagRe.FindStringSubmatch(s[i:]); m != nil && m[0] != "</g>" {
			out = append(out, m[0])
		}
	}
	return out
}
