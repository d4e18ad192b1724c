package language

import (
	"errors"
	"testing"
)

func TestRegistryHas45LanguagesWithDirection(t *testing.T) {
	if n := len(All()); n < 45 {
		t.Fatalf("registry has %d languages, want at least 45", n)
	}
	for _, name := range []string{"Arabic", "Hebrew", "Persian", "Urdu"} {
		l, err := Lookup(name)
		if err != nil || !l.IsRTL() {
			t.Errorf("%s: %+v %v, want an RTL language", name, l, err)
		}
	}
	if l, _ := Lookup("English"); l.IsRTL() {
		t.Error("English is not RTL")
	}
}

func TestLookupIsCaseInsensitiveAndTakesCodes(t *testing.T) {
	for in, want := range map[string]string{
		"spanish": "Spanish", "ES": "Spanish", "chinese (simplified)": "Chinese (Simplified)",
		"zh": "Chinese (Simplified)", "fa": "Persian", "heb": "Hebrew", " Arabic ": "Arabic",
	} {
		l, err := Lookup(in)
		if err != nil || l.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, l.Name, err, want)
		}
	}
	var unk ErrUnknown
	if _, err := Lookup("Klingon"); !errors.As(err, &unk) {
		t.Errorf("Klingon: err = %v, want ErrUnknown", err)
	}
}
