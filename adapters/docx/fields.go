package docx

import "strings"

// Fields whose result Word computes (a number, a page, a count) are not
// text to translate: an engine given "جدول <x/>5<x/>-<x/>1" may move the
// number or the label across the field's codes, and the label then sits in
// the field's result, where Word's next update replaces it with the number
// (issue 22 §5: caption labels lost or left untranslated). Their results
// stay as isolated codes, so the engine sees the label and a placeholder;
// the field's code and identifiers (SEQ جدول, _Toc bookmarks) stay as
// written. Fields whose result is text (TOC entries, HYPERLINK display
// text, REF and STYLEREF copying text, dates) are translated as before.

// computedField reports whether a field instruction's result is computed.
func computedField(instr string) bool {
	f := strings.Fields(instr)
	if len(f) == 0 {
		return false
	}
	name := strings.ToUpper(f[0])
	if strings.HasPrefix(name, "=") {
		return true // a formula
	}
	switch name {
	case "SEQ", "PAGE", "NUMPAGES", "SECTIONPAGES", "SECTION", "PAGEREF", "NOTEREF",
		"AUTONUM", "AUTONUMLGL", "AUTONUMOUT", "LISTNUM", "NUMWORDS", "NUMCHARS", "REVNUM", "FILESIZE", "EDITTIME":
		return true
	case "REF", "STYLEREF":
		// a paragraph or heading number, not its text
		for _, sw := range f[1:] {
			switch strings.ToLower(sw) {
			case `\n`, `\r`, `\w`, `\s`:
				return true
			}
		}
	}
	return false
}
