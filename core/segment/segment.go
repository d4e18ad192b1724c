// Package segment is Dragoman's document model: a document is a list of
// translation units (one per paragraph-like container), each split into
// segments whose text carries inline codes.
//
// Inline codes follow XLIFF 1.2: a formatting span or hyperlink is a paired
// code written as <g id="N">…</g>, anything that sits between words (tab,
// break, note reference, field, image, bookmark) is an isolated code
// <x id="N"/>. Text outside tags is XML-escaped (&lt; &gt; &amp;). Providers
// see only this tagged text; the native markup each id stands for stays with
// the format adapter that produced it (Unit.Codes), so no engine can corrupt it.
//
// The grammar of tagged text (tokens, escaping, Repair) is the plugin SDK's
// package plugins/sdk/tagged, which host and plugins share; this package
// holds what only the host needs: the document model and sentence splitting.
package segment

import (
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// CodeKind says whether an inline code wraps text or stands alone.
type CodeKind string

const (
	Paired   CodeKind = "paired"   // <g id="N">…</g>: bold span, hyperlink, …
	Isolated CodeKind = "isolated" // <x id="N"/>: tab, break, note reference, …
)

// Code is one inline code of a unit. Native is opaque to everything but the
// format adapter that wrote it (for DOCX: the run properties or element XML).
type Code struct {
	ID     int      `json:"id"`
	Kind   CodeKind `json:"kind"`
	Type   string   `json:"type,omitempty"` // semantic hint: "fmt", "link", "tab", "br", "fn", …
	Native string   `json:"native,omitempty"`
}

// Segment is the piece a provider translates: usually one sentence.
type Segment struct {
	ID     string `json:"id"`
	Source string `json:"source"`           // tagged text
	Target string `json:"target,omitempty"` // tagged text, filled by translation
	// Flags are the review's reasons to check the target (package review).
	Flags []review.Flag `json:"flags,omitempty"`
	// Edited is set once a person changed the target (a revision);
	// Revised is the revision that changed it last.
	Edited  bool `json:"edited,omitempty"`
	Revised int  `json:"revised,omitempty"`
	// History holds the targets edits replaced, oldest first, so an XLIFF
	// file exported before an edit can tell what it was exported with.
	History []Replaced `json:"history,omitempty"`
	// Notes are what the translation noted for the review; not stored.
	Notes Notes `json:"-"`
}

// Replaced is a target an edit replaced: Target was the segment's target
// until revision Revision.
type Replaced struct {
	Revision int    `json:"revision"`
	Target   string `json:"target"`
}

// TargetAt is the segment's target as it was at revision rev.
func (s *Segment) TargetAt(rev int) string {
	for _, h := range s.History {
		if h.Revision > rev {
			return h.Target
		}
	}
	return s.Target
}

// Notes are what translating a segment noted for its review: the words
// the engine did not know, the repairs made to the codes of its output,
// and the glossary or do-not-translate terms whose placeholder it dropped
// (put back at the end of the sentence).
type Notes struct {
	Unknown   []string
	Fixes     []tagged.Fix
	LostTerms []string
}

// Unit is a paragraph-like container: a paragraph, a table cell paragraph,
// a text-box paragraph, an alt text, a document property.
type Unit struct {
	ID       string    `json:"id"`
	Part     string    `json:"part,omitempty"` // where it lives, e.g. "word/document.xml"
	Codes    []Code    `json:"codes,omitempty"`
	Segments []Segment `json:"segments"`
	// Where says where a person finds it (one of Places).
	Where string `json:"where,omitempty"`
	// Fixed names the container of fixed size its text must fit
	// (review.TextBox, review.TableRow, review.Frame); "" when it grows.
	Fixed string `json:"fixed,omitempty"`
}

// Places a unit can be: the story it belongs to, or the container that
// holds it within one.
var Places = []string{"body", "table", "text box", "frame", "header", "footer", "footnote", "endnote",
	"comment", "chart", "diagram", "image description", "document properties"}

// CodeTypes are the types of u's codes by id.
func (u *Unit) CodeTypes() map[int]string {
	if len(u.Codes) == 0 {
		return nil
	}
	m := make(map[int]string, len(u.Codes))
	for _, c := range u.Codes {
		m[c.ID] = c.Type
	}
	return m
}

// Document is everything translatable in one file, in document order.
type Document struct {
	Format string `json:"format"` // "docx"
	Units  []Unit `json:"units"`
}

// Segments calls fn for every segment, in order, with a pointer so fn may
// set Target.
func (d *Document) EachSegment(fn func(u *Unit, s *Segment)) {
	for i := range d.Units {
		u := &d.Units[i]
		for j := range u.Segments {
			fn(u, &u.Segments[j])
		}
	}
}

// PlainText is the document's source text without codes, one unit per line;
// it feeds word counting and language detection.
func (d *Document) PlainText() string {
	var b []byte
	for _, u := range d.Units {
		for i, s := range u.Segments {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, tagged.Plain(s.Source)...)
		}
		b = append(b, '\n')
	}
	return string(b)
}
