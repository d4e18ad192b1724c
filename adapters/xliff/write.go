// Package xliff writes a job's segments as XLIFF 2.1 or 1.2 for
// post-editing in a CAT tool, and reads the edited file back with the
// hardening documents get (no DTD, no entities, size and depth caps).
//
// Every segment of the job (a sentence) is one XLIFF unit with one
// segment (2.1 <unit>, 1.2 <trans-unit>), inside a <group> per
// paragraph-like unit of the document: parsers that read one segment per
// unit (the npm xliff package) see every sentence. Ids are positional:
// group u3 is the document's third unit, unit u3.s1 its second sentence;
// the document's own ids are their name (2.1) or resname (1.2). Inline codes are the job's own: a
// paired code is <pc id="N"> (1.2 <g id="N">), an isolated one
// <ph id="N"/> (1.2 <x id="N"/>). The file's original attribute ties it
// to its job: dragoman:job:<job id>.
package xliff

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Codec implements ports.XLIFF.
type Codec struct {
	// MaxBytes caps an imported file; zero means DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes caps an imported XLIFF file.
const DefaultMaxBytes = 64 << 20

var _ ports.XLIFF = Codec{}

const (
	ns20 = "urn:oasis:names:tc:xliff:document:2.0" // XLIFF 2.1 keeps the 2.0 namespace
	ns12 = "urn:oasis:names:tc:xliff:document:1.2"
)

// Original is the original attribute that ties a file to job id.
func Original(jobID string) string { return "dragoman:job:" + jobID }

func unitID(i int) string  { return "u" + strconv.Itoa(i+1) }
func segID(j int) string   { return "s" + strconv.Itoa(j) }
func tuID(i, j int) string { return unitID(i) + "." + segID(j) }
func attr(s string) string { return escapeText(s, true) }
func text(s string) string { return escapeText(s, false) }
func codeType(t string) string {
	switch t {
	case "fmt", "link", "image":
		return t
	}
	return ""
}

func escapeText(s string, quote bool) string {
	var b strings.Builder
	if quote {
		_ = xml.EscapeText(&b, []byte(s)) // escapes quotes and newlines too
		return b.String()
	}
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	return r.Replace(stripInvalid(s))
}

// stripInvalid drops characters XML 1.0 cannot carry (control characters
// a document may hold), so the export is always well-formed.
func stripInvalid(s string) string {
	ok := true
	for _, r := range s {
		if !isXMLChar(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isXMLChar(r) {
			return r
		}
		return -1
	}, s)
}

func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// Export writes doc as XLIFF of the given version ("2.1", the default, or
// "1.2").
func (Codec) Export(w io.Writer, doc *segment.Document, m ports.BilingualMeta, version string) error {
	bw := bufio.NewWriter(w)
	switch version {
	case "", "2.1", "2.0", "2":
		write21(bw, doc, m)
	case "1.2":
		write12(bw, doc, m)
	default:
		return fmt.Errorf("%w: XLIFF version %q is not offered (2.1 or 1.2)", ports.ErrBadBilingual, version)
	}
	return bw.Flush()
}

// inline21 turns tagged text into XLIFF 2.1 inline content.
func inline21(src string, codes map[int]segment.Code) string {
	var b strings.Builder
	for _, t := range tagged.Tokenize(src) {
		switch t.Kind {
		case tagged.Text:
			b.WriteString(text(t.Text))
		case tagged.Open:
			fmt.Fprintf(&b, `<pc id="%d"`, t.ID)
			if ty := codeType(codes[t.ID].Type); ty != "" {
				fmt.Fprintf(&b, ` type="%s"`, ty)
			}
			b.WriteString(">")
		case tagged.Close:
			b.WriteString("</pc>")
		case tagged.Place:
			fmt.Fprintf(&b, `<ph id="%d"`, t.ID)
			if ty := codeType(codes[t.ID].Type); ty != "" {
				fmt.Fprintf(&b, ` type="%s"`, ty)
			}
			b.WriteString("/>")
		}
	}
	return b.String()
}

// inline12 turns tagged text into XLIFF 1.2 inline content: the job's own
// notation, re-escaped.
func inline12(src string, codes map[int]segment.Code) string {
	var b strings.Builder
	for _, t := range tagged.Tokenize(src) {
		switch t.Kind {
		case tagged.Text:
			b.WriteString(text(t.Text))
		case tagged.Open:
			fmt.Fprintf(&b, `<g id="%d"`, t.ID)
			if codeType(codes[t.ID].Type) == "link" {
				b.WriteString(` ctype="x-link"`)
			}
			b.WriteString(">")
		case tagged.Close:
			b.WriteString("</g>")
		case tagged.Place:
			fmt.Fprintf(&b, `<x id="%d"/>`, t.ID)
		}
	}
	return b.String()
}

func codeMap(u *segment.Unit) map[int]segment.Code {
	m := make(map[int]segment.Code, len(u.Codes))
	for _, c := range u.Codes {
		m[c.ID] = c
	}
	return m
}

func write21(w *bufio.Writer, doc *segment.Document, m ports.BilingualMeta) {
	w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(w, `<xliff xmlns="%s" version="2.1" srcLang="%s" trgLang="%s">`+"\n", ns20, attr(m.SourceLang), attr(m.TargetLang))
	fmt.Fprintf(w, ` <file id="f1" original="%s">`+"\n", attr(Original(m.JobID)))
	w.WriteString("  <notes>\n")
	fmt.Fprintf(w, `   <note id="job" category="dragoman-job">%s</note>`+"\n", text(m.JobID))
	fmt.Fprintf(w, `   <note id="revision" category="dragoman-revision">revision %d</note>`+"\n", m.Revision)
	if m.Name != "" {
		fmt.Fprintf(w, `   <note id="name" category="dragoman-document">%s</note>`+"\n", text(m.Name))
	}
	for i, wn := range m.Warnings {
		fmt.Fprintf(w, `   <note id="w%d" category="warning">%s</note>`+"\n", i+1, text(wn))
	}
	w.WriteString("  </notes>\n")
	for i := range doc.Units {
		u := &doc.Units[i]
		codes := codeMap(u)
		fmt.Fprintf(w, `  <group id="%s" name="%s">`+"\n", unitID(i), attr(u.ID))
		for j, s := range u.Segments {
			fmt.Fprintf(w, `   <unit id="%s" name="%s" xml:space="preserve">`+"\n", tuID(i, j), attr(s.ID))
			fmt.Fprintf(w, `    <segment id="%s" state="translated">`+"\n", segID(j))
			fmt.Fprintf(w, "     <source>%s</source>\n", inline21(s.Source, codes))
			fmt.Fprintf(w, "     <target>%s</target>\n", inline21(s.Target, codes))
			w.WriteString("    </segment>\n   </unit>\n")
		}
		w.WriteString("  </group>\n")
	}
	w.WriteString(" </file>\n</xliff>\n")
}

func write12(w *bufio.Writer, doc *segment.Document, m ports.BilingualMeta) {
	w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(w, `<xliff xmlns="%s" version="1.2">`+"\n", ns12)
	fmt.Fprintf(w, ` <file original="%s" source-language="%s" target-language="%s" datatype="x-docx" tool-id="dragoman">`+"\n",
		attr(Original(m.JobID)), attr(m.SourceLang), attr(m.TargetLang))
	w.WriteString("  <header>\n")
	w.WriteString(`   <tool tool-id="dragoman" tool-name="Dragoman"/>` + "\n")
	fmt.Fprintf(w, `   <note from="dragoman" annotates="general">job %s</note>`+"\n", text(m.JobID))
	fmt.Fprintf(w, `   <note from="dragoman" annotates="general">revision %d</note>`+"\n", m.Revision)
	if m.Name != "" {
		fmt.Fprintf(w, `   <note from="dragoman" annotates="general">document %s</note>`+"\n", text(m.Name))
	}
	for _, wn := range m.Warnings {
		fmt.Fprintf(w, `   <note from="dragoman" annotates="general" priority="2">warning: %s</note>`+"\n", text(wn))
	}
	w.WriteString("  </header>\n  <body>\n")
	for i := range doc.Units {
		u := &doc.Units[i]
		codes := codeMap(u)
		fmt.Fprintf(w, `   <group id="%s" resname="%s">`+"\n", unitID(i), attr(u.ID))
		for j, s := range u.Segments {
			fmt.Fprintf(w, `    <trans-unit id="%s" resname="%s" xml:space="preserve">`+"\n", tuID(i, j), attr(s.ID))
			fmt.Fprintf(w, "     <source>%s</source>\n", inline12(s.Source, codes))
			fmt.Fprintf(w, `     <target state="translated">%s</target>`+"\n", inline12(s.Target, codes))
			w.WriteString("    </trans-unit>\n")
		}
		w.WriteString("   </group>\n")
	}
	w.WriteString("  </body>\n </file>\n</xliff>\n")
}
