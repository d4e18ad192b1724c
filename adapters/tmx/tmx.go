// Package tmx writes an account's translation memory as TMX 1.4b and
// reads TMX files from other tools into it, with the hardening documents
// get (no internal DTD subset, no entities, size and depth caps).
//
// Inline codes travel as TMX's own: a paired code <g id="N">…</g> of
// Dragoman's tagged text is <bpt i="k" x="N"/>…<ept i="k"/>, an isolated
// code <x id="N"/> is <ph x="N"/>. They are empty (the native markup stays
// with the documents), so readers that flatten codes into text, as
// translate-toolkit's does, see the words only. Text from other tools
// without codes is taken as it is.
package tmx

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Codec implements ports.TMX.
type Codec struct {
	// MaxBytes caps an imported file; zero means DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes caps an imported TMX file.
const DefaultMaxBytes = 64 << 20

const maxDepth = 64

var _ ports.TMX = Codec{}

var esc = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func text(s string) string {
	return esc.Replace(strings.Map(func(r rune) rune {
		if r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000 {
			return r
		}
		return -1
	}, s))
}

// seg writes tagged text as the content of a TMX <seg>.
func seg(src string) string {
	var b strings.Builder
	var open []int // i of the open bpts
	next := 0
	for _, t := range tagged.Tokenize(src) {
		switch t.Kind {
		case tagged.Text:
			b.WriteString(text(t.Text))
		case tagged.Open:
			next++
			open = append(open, next)
			fmt.Fprintf(&b, `<bpt i="%d" x="%d"/>`, next, t.ID)
		case tagged.Close:
			i := open[len(open)-1]
			open = open[:len(open)-1]
			fmt.Fprintf(&b, `<ept i="%d"/>`, i)
		case tagged.Place:
			fmt.Fprintf(&b, `<ph x="%d"/>`, t.ID)
		}
	}
	return b.String()
}

// Export writes entries as TMX 1.4b, one <tu> per entry.
func (Codec) Export(w io.Writer, entries []ports.MemoryEntry) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	bw.WriteString(`<tmx version="1.4">` + "\n")
	bw.WriteString(` <header creationtool="Dragoman" creationtoolversion="1" segtype="sentence" o-tmf="dragoman" adminlang="en" srclang="*all*" datatype="xml"/>` + "\n")
	bw.WriteString(" <body>\n")
	for _, e := range entries {
		fmt.Fprintf(bw, `  <tu srclang="%s">`+"\n", text(e.SourceLang))
		if e.Origin != "" {
			fmt.Fprintf(bw, `   <prop type="x-dragoman-origin">%s</prop>`+"\n", text(e.Origin))
		}
		fmt.Fprintf(bw, `   <tuv xml:lang="%s"><seg>%s</seg></tuv>`+"\n", text(e.SourceLang), seg(e.Source))
		fmt.Fprintf(bw, `   <tuv xml:lang="%s"><seg>%s</seg></tuv>`+"\n", text(e.TargetLang), seg(e.Target))
		bw.WriteString("  </tu>\n")
	}
	bw.WriteString(" </body>\n</tmx>\n")
	return bw.Flush()
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ports.ErrBadBilingual, fmt.Sprintf(format, args...))
}

type tooLarge string

func (e tooLarge) Error() string { return string(e) }
func (e tooLarge) Is(t error) bool {
	return t == ports.ErrBadBilingual || t == ports.ErrBilingualTooLarge
}

// code maps a language tag of a TMX file (en, en-US, EN_gb) to a code
// Dragoman knows, or "".
func code(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if l, ok := language.ByCode(tag); ok {
		return l.Code
	}
	if i := strings.IndexAny(tag, "-_"); i > 0 {
		if l, ok := language.ByCode(tag[:i]); ok {
			return l.Code
		}
	}
	return ""
}

type tuv struct{ lang, seg string }

// Import reads a TMX file: every <tu> gives one entry per target
// language, from its source language (the tu's or the header's srclang,
// else its first variant).
func (c Codec) Import(r io.Reader) ([]ports.MemoryEntry, []string, error) {
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	lr := &io.LimitedReader{R: r, N: max + 1}
	d := xml.NewDecoder(lr)
	d.Strict = true
	d.Entity = nil
	var (
		entries     []ports.MemoryEntry
		skipped     []string
		depth       int
		headerSrc   string
		sawRoot     bool
		tuN         int
		tuSrc       string
		tuvs        []tuv
		curLang     string
		inSeg       int
		b           strings.Builder
		opened      map[string]int // bpt i → code id
		stack       []int
		skipDepth   int // inside an element whose content is not text (bpt, ept, ph, sub, …)
		inTU, inTUV bool
		tuvHasSeg   bool
	)
	where := func() string {
		if inTU {
			return fmt.Sprintf("translation unit %d: ", tuN)
		}
		return ""
	}
	for {
		tok, err := d.Token()
		if lr.N <= 0 {
			return nil, nil, tooLarge(fmt.Sprintf("the TMX file is larger than %d MB", max>>20))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, nil, bad("%sthe TMX file is not well-formed (line %d: %s)", where(), se.Line, se.Msg)
			}
			return nil, nil, bad("%sthe TMX file is not well-formed: %v", where(), err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			// <!DOCTYPE tmx SYSTEM "tmx14.dtd"> as many tools write it is
			// harmless (nothing is fetched); an internal subset is not.
			s := string(t)
			if !strings.HasPrefix(s, "DOCTYPE") || strings.ContainsAny(s, "[<") {
				return nil, nil, bad("the TMX file has an internal DTD subset or entity declarations; they are not accepted")
			}
		case xml.StartElement:
			depth++
			if depth > maxDepth {
				return nil, nil, bad("%selements are nested deeper than %d", where(), maxDepth)
			}
			if depth == 1 {
				if t.Name.Local != "tmx" {
					return nil, nil, bad("the file is not TMX: its root element is <%s>", t.Name.Local)
				}
				sawRoot = true
				continue
			}
			if skipDepth > 0 {
				skipDepth++
				continue
			}
			if inSeg > 0 {
				switch t.Name.Local {
				case "bpt":
					id, ok := codeID(t, "x", "i")
					if !ok {
						return nil, nil, bad("%s<bpt> without a numeric i or x", where())
					}
					opened[attr(t, "i")] = id
					stack = append(stack, id)
					fmt.Fprintf(&b, `<g id="%d">`, id)
				case "ept":
					if len(stack) == 0 {
						return nil, nil, bad("%s<ept> without its <bpt>", where())
					}
					stack = stack[:len(stack)-1]
					b.WriteString("</g>")
				case "ph":
					if id, ok := codeID(t, "x"); ok {
						fmt.Fprintf(&b, `<x id="%d"/>`, id)
					}
				case "hi":
					continue // a highlight: its text is kept
				}
				skipDepth = 1 // bpt, ept, ph, it, ut, sub: native code, not text
				continue
			}
			switch t.Name.Local {
			case "header":
				headerSrc = attr(t, "srclang")
			case "tu":
				tuN++
				inTU, tuSrc, tuvs = true, attr(t, "srclang"), nil
			case "tuv":
				inTUV, tuvHasSeg = true, false
				curLang = attr(t, "lang")
			case "seg":
				if !inTUV {
					continue
				}
				inSeg = depth
				b.Reset()
				opened, stack = map[string]int{}, nil
			}
		case xml.EndElement:
			depth--
			if skipDepth > 0 {
				skipDepth--
				continue
			}
			switch {
			case inSeg > 0 && depth < inSeg:
				inSeg = 0
				for range stack { // a bpt whose ept is missing: closed at the end
					b.WriteString("</g>")
				}
				tuvs = append(tuvs, tuv{curLang, b.String()})
				tuvHasSeg = true
			case t.Name.Local == "tuv":
				if !tuvHasSeg {
					return nil, nil, bad("%sa <tuv> has no <seg>", where())
				}
				inTUV = false
			case t.Name.Local == "tu":
				inTU = false
				e, skip := entriesOf(tuN, tuSrc, headerSrc, tuvs)
				entries = append(entries, e...)
				skipped = append(skipped, skip...)
			}
		case xml.CharData:
			if inSeg > 0 && skipDepth == 0 {
				b.WriteString(tagged.Escape(string(t)))
			}
		}
	}
	if !sawRoot {
		return nil, nil, bad("the file is not TMX: no <tmx> root element")
	}
	return entries, skipped, nil
}

func entriesOf(n int, tuSrc, headerSrc string, tuvs []tuv) ([]ports.MemoryEntry, []string) {
	if len(tuvs) < 2 {
		return nil, []string{fmt.Sprintf("translation unit %d: fewer than two languages", n)}
	}
	srcTag := tuSrc
	if srcTag == "" || srcTag == "*all*" {
		srcTag = headerSrc
	}
	src := -1
	for i, v := range tuvs {
		if strings.EqualFold(v.lang, srcTag) || (code(v.lang) != "" && code(v.lang) == code(srcTag)) {
			src = i
			break
		}
	}
	if src < 0 {
		src = 0
	}
	sl := code(tuvs[src].lang)
	if sl == "" {
		return nil, []string{fmt.Sprintf("translation unit %d: unknown source language %q", n, tuvs[src].lang)}
	}
	var out []ports.MemoryEntry
	var skipped []string
	for i, v := range tuvs {
		if i == src {
			continue
		}
		tl := code(v.lang)
		switch {
		case tl == "":
			skipped = append(skipped, fmt.Sprintf("translation unit %d: unknown language %q", n, v.lang))
		case tl == sl || strings.TrimSpace(tagged.Plain(tuvs[src].seg)) == "" || strings.TrimSpace(tagged.Plain(v.seg)) == "":
			skipped = append(skipped, fmt.Sprintf("translation unit %d (%s): empty or same language", n, v.lang))
		default:
			out = append(out, ports.MemoryEntry{SourceLang: sl, TargetLang: tl, Source: tuvs[src].seg, Target: v.seg, Origin: "import"})
		}
	}
	return out, skipped
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func codeID(t xml.StartElement, names ...string) (int, bool) {
	for _, n := range names {
		if v, err := strconv.Atoi(attr(t, n)); err == nil && v >= 0 {
			return v, true
		}
	}
	return 0, false
}
