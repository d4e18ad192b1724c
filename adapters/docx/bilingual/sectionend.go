package bilingual

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// isBreak: a paragraph that ends a section (holds w:sectPr).
func isBreak(n *ooxml.Node) bool {
	return n.IsW("p") && n.Child("pPr") != nil && n.Child("pPr").Child("sectPr") != nil
}

// endsSection marks the body elements that stay paragraphs of the body
// after a section's table instead of becoming rows: the empty paragraphs
// that end a section (before its break or the final w:sectPr). A section
// that ends with a table must end with one paragraph more — the break's
// own: LibreOffice drops an empty break paragraph after a paragraph but
// keeps it after a table, since its sections cannot end with one — so a
// row of nothing beside nothing and that paragraph made the bilingual
// document taller than the translation where nothing shows, enough to push
// the last (empty) section onto a page of its own. Decided on the source,
// as KeepSourceDirection counts the source column's rows from it.
func endsSection(src []*ooxml.Node) []bool {
	out := make([]bool, len(src))
	trailing := true // nothing but empty paragraphs until the section's end
	for i := len(src) - 1; i >= 0; i-- {
		n := src[i]
		switch {
		case n.IsW("sectPr") || isBreak(n):
			trailing = true
		case n.IsW("p") && emptyParagraph(n):
			out[i] = trailing
		case isBlock(n):
			trailing = false
		}
	}
	return out
}

// emptyParagraph: a paragraph with nothing to show, neither text nor
// object nor list number.
func emptyParagraph(p *ooxml.Node) bool {
	marks := map[string]bool{"bookmarkStart": true, "bookmarkEnd": true, "proofErr": true, "permStart": true, "permEnd": true,
		"commentRangeStart": true, "commentRangeEnd": true}
	for _, k := range elems(p) {
		switch {
		case k.IsW("pPr"):
			if k.Child("numPr") != nil {
				return false
			}
		case k.IsW("r"):
			for _, rk := range elems(k) {
				if !rk.IsW("rPr") {
					return false
				}
			}
		case marks[k.Local] && (k.NS == ooxml.NSW || k.NS == ooxml.NSWStrict):
		default:
			return false
		}
	}
	return true
}
