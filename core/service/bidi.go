package service

import "strings"

// isBidiControl reports the invisible direction controls that let a name
// show as something else ("\u202Excod.exe" displays as "exe.docx"): the
// embeddings and overrides U+202A–202E, the isolates U+2066–2069 and the
// marks U+200E/200F. File names have no use for them.
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F
}

// stripBidi removes the bidi controls from s.
func stripBidi(s string) string {
	return strings.Map(func(r rune) rune {
		if isBidiControl(r) {
			return -1
		}
		return r
	}, s)
}
