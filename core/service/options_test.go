package service

import (
	"errors"
	"testing"
)

func TestParseOptionsDefaultsAndErrors(t *testing.T) {
	o, err := ParseOptions("", "", "")
	if err != nil || o.Target.Name != "Arabic" || o.Source != nil || o.Mode != "professional" {
		t.Fatalf("defaults: %+v %v", o, err)
	}
	o, err = ParseOptions("spanish", "EN", "Extreme")
	if err != nil || o.Target.Name != "Spanish" || o.Source.Name != "English" || o.Mode != "extreme" {
		t.Fatalf("explicit: %+v %v", o, err)
	}
	if _, err := ParseOptions("Spanish", "auto", "full"); err != nil {
		t.Errorf("auto source: %v", err)
	}
	for _, bad := range [][3]string{{"Klingon", "", ""}, {"Spanish", "Elvish", ""}, {"Spanish", "", "poetic"}} {
		_, err := ParseOptions(bad[0], bad[1], bad[2])
		if kindOf(err) != KindUnprocessable {
			t.Errorf("%v: kind %v (%v), want unprocessable", bad, kindOf(err), err)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"report.docx": "report.es.docx", "Q3 report.final.doc": "Q3 report.final.es.docx", "": "document.es.docx",
	} {
		if got := DownloadName(in, "Spanish"); got != want {
			t.Errorf("DownloadName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		`..\..\etc\passwd`: "passwd", "a/b/c.odt": "c.odt", "": "document.rtf", "bad\x00\"name.rtf": "badname.rtf",
	} {
		if got := cleanName(in, "rtf"); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// kindOf returns the kind of err, 0 for an internal error.
func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
