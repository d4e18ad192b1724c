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

// TestNamesEveryApertiumLanguage (issue 22 §1): the 36 languages of the
// pairs Debian ships, by the codes Apertium's modes use, are registry
// languages with an ISO 639-1 code where one exists (else 639-3), an
// English name and an endonym; the variants the pairs expose are reachable
// by their names and BCP 47 tags.
func TestNamesEveryApertiumLanguage(t *testing.T) {
	apertium := map[string]string{
		"afr": "af", "arg": "an", "ast": "ast", "bel": "be", "br": "br", "bul": "bg", "cat": "ca", "dan": "da",
		"eng": "en", "eo": "eo", "eu": "eu", "fra": "fr", "frp": "frp", "gl": "gl", "hbs": "sh", "hin": "hi",
		"ind": "id", "isl": "is", "ita": "it", "mkd": "mk", "nld": "nl", "nno": "nn", "nob": "nb", "oci": "oc",
		"pol": "pl", "por": "pt", "ro": "ro", "rus": "ru", "slv": "sl", "spa": "es", "srd": "sc", "swe": "sv",
		"szl": "szl", "ukr": "uk", "urd": "ur", "zlm": "ms",
	}
	if len(apertium) != 36 {
		t.Fatalf("%d Apertium languages listed, want 36", len(apertium))
	}
	for code, want := range apertium {
		l, ok := ByCode(code)
		if !ok || l.Code != want || l.IsVariant() {
			t.Errorf("Apertium's %q: %+v %v, want the registry's %q", code, l, ok, want)
		}
	}
	for _, l := range All() {
		if l.Name == "" || l.Endonym == "" || l.Code3 == "" || l.Script == "" {
			t.Errorf("%+v: every language has a name, an endonym, a 639-3 code and a script", l)
		}
		if got, err := Lookup(l.Endonym); err != nil || (got.Code != l.Code && got.Endonym != l.Endonym) {
			t.Errorf("Lookup(%q) = %v %v, want %s", l.Endonym, got.Code, err, l.Code)
		}
		if l.IsVariant() {
			if base, ok := ByCode(l.Of); !ok || base.IsVariant() || base.Dir != l.Dir {
				t.Errorf("variant %s of %q", l.Code, l.Of)
			}
		}
	}
	for in, want := range map[string]string{
		"Valencian": "ca-valencia", "ca-valencia": "ca-valencia", "pt-BR": "pt-BR", "Brazilian Portuguese": "pt-BR",
		"Aranese": "oc-aranes", "Gascon": "oc-gascon", "Serbian": "sr", "Croatian": "hr", "Bosnian": "bs",
		"Serbo-Croatian": "sh", "Español": "es", "Arpitan": "frp", "pt-PT": "pt",
	} {
		if l, err := Lookup(in); err != nil || l.Code != want {
			t.Errorf("Lookup(%q) = %q %v, want %q", in, l.Code, err, want)
		}
	}
	if n := len(All()); n < 76 {
		t.Errorf("%d registry entries, want at least 76", n)
	}
}
