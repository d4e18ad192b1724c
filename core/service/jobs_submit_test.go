package service

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A long name is cut to its last 200 bytes without splitting a character
// (an Urdu or Arabic name is two bytes a letter), keeps its extension,
// and loses what would mislead a person or a header.
func TestCleanNameKeepsWholeCharacters(t *testing.T) {
	long := strings.Repeat("ب", 150) + ".docx" // 305 bytes
	got := cleanName(long, "docx")
	if !utf8.ValidString(got) || len(got) > 200 || !strings.HasSuffix(got, "ب.docx") {
		t.Errorf("cleanName(%d bytes) = %q (%d bytes, valid %v)", len(long), got, len(got), utf8.ValidString(got))
	}
	if got := cleanName("C:\\reports\\q\u202e3.docx", "docx"); got != "q3.docx" {
		t.Errorf("cleanName with a folder and a bidi override = %q", got)
	}
}
