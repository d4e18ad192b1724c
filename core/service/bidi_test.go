package service

import "testing"

// TestNamesLoseBidiControls: a name cannot spoof its extension, neither
// as original_name nor in the download's file name (which also serves
// jobs stored before names were cleaned).
func TestNamesLoseBidiControls(t *testing.T) {
	for in, want := range map[string]string{
		"\u202Excod.exe.docx":                  "xcod.exe.docx",
		"a\u202A\u202B\u202C\u202D\u202Eb.odt": "ab.odt",
		"\u2066c\u2067d\u2068e\u2069.rtf":      "cde.rtf",
		"\u200Emark\u200F.doc":                 "mark.doc",
		"\u202E\u2066\u200F":                   "document.rtf",
		"عربي.docx":                            "عربي.docx",
	} {
		if got := cleanName(in, "rtf"); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := DownloadName("\u202Excod.exe.docx", "Spanish"); got != "xcod.exe.es.docx" {
		t.Errorf("DownloadName = %q", got)
	}
}
