package segment

import (
	"fmt"
	"strconv"
	"strings"
)

// TokenKind is one piece of tagged text.
type TokenKind int

const (
	Text  TokenKind = iota // plain text, unescaped
	Open                   // <g id="N">
	Close                  // </g> (ID is the matching open's)
	Place                  // <x id="N"/>
)

// Token is text or one tag of a tagged string.
type Token struct {
	Kind TokenKind
	ID   int
	Text string
}

// Builder writes tagged text.
type Builder struct{ b strings.Builder }

func (w *Builder) Text(s string)  { w.b.WriteString(Escape(s)) }
func (w *Builder) Open(id int)    { fmt.Fprintf(&w.b, `<g id="%d">`, id) }
func (w *Builder) Close()         { w.b.WriteString(`</g>`) }
func (w *Builder) Place(id int)   { fmt.Fprintf(&w.b, `<x id="%d"/>`, id) }
func (w *Builder) String() string { return w.b.String() }

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
var unescaper = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&#39;", "'", "&#34;", `"`)

// Escape makes plain text safe inside tagged text.
func Escape(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	return escaper.Replace(s)
}

// Unescape turns escaped text back into plain text.
func Unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return unescaper.Replace(s)
}

// Tokenize splits tagged text. It is lenient, because it reads what engines
// send back: unknown tags and stray '<' are kept as text, a </g> without an
// open is dropped, and an unclosed <g> is closed at the end.
func Tokenize(s string) []Token {
	var out []Token
	var stack []int
	text := func(t string) {
		if t == "" {
			return
		}
		t = Unescape(t)
		if n := len(out); n > 0 && out[n-1].Kind == Text {
			out[n-1].Text += t
			return
		}
		out = append(out, Token{Kind: Text, Text: t})
	}
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			text(s)
			break
		}
		text(s[:i])
		s = s[i:]
		tok, n := parseTag(s)
		if n == 0 {
			text("<")
			s = s[1:]
			continue
		}
		s = s[n:]
		switch tok.Kind {
		case Open:
			stack = append(stack, tok.ID)
			out = append(out, tok)
		case Close:
			if len(stack) == 0 {
				continue
			}
			tok.ID = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out = append(out, tok)
		case Place:
			if tok.ID >= 0 {
				out = append(out, tok)
			}
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, Token{Kind: Close, ID: stack[i]})
	}
	return out
}

// parseTag reads one tag at the start of s: <g id="N">, </g>, <x id="N"/>
// (also with single quotes, extra spaces, or <x id="N"></x> as some engines
// write it). It returns n=0 when s does not start with one.
func parseTag(s string) (Token, int) {
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return Token{}, 0
	}
	tag := s[1:end]
	n := end + 1
	if strings.TrimSpace(tag) == "/g" {
		return Token{Kind: Close}, n
	}
	if strings.TrimSpace(tag) == "/x" { // stray closing half of <x></x>: dropped
		return Token{Kind: Place, ID: -1}, n
	}
	selfClosing := strings.HasSuffix(tag, "/")
	tag = strings.TrimSuffix(tag, "/")
	fields := strings.Fields(tag)
	if len(fields) != 2 || (fields[0] != "g" && fields[0] != "x") {
		return Token{}, 0
	}
	attr := strings.ReplaceAll(fields[1], " ", "")
	if !strings.HasPrefix(attr, "id=") {
		return Token{}, 0
	}
	v := strings.Trim(attr[3:], `"'`)
	id, err := strconv.Atoi(v)
	if err != nil || id < 0 {
		return Token{}, 0
	}
	if fields[0] == "x" {
		if !selfClosing && strings.HasPrefix(s[n:], "</x>") {
			n += len("</x>")
		}
		return Token{Kind: Place, ID: id}, n
	}
	if selfClosing { // <g id="1"/>: an empty span
		return Token{Kind: Place, ID: -1}, n
	}
	return Token{Kind: Open, ID: id}, n
}

// Plain is the text of tagged text without its codes.
func Plain(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	for _, t := range Tokenize(s) {
		if t.Kind == Text {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// Render writes tokens back as tagged text.
func Render(toks []Token) string {
	var w Builder
	for _, t := range toks {
		switch t.Kind {
		case Text:
			w.Text(t.Text)
		case Open:
			w.Open(t.ID)
		case Close:
			w.Close()
		case Place:
			if t.ID >= 0 {
				w.Place(t.ID)
			}
		}
	}
	return w.String()
}
