package language

import (
	"reflect"
	"testing"

	host "github.com/dragoman-translate/dragoman/core/language"
)

// The plugins' copy of the registry must be the host's, entry for entry,
// and look codes up the same way: a plugin that names or maps a language
// differently from the host would serve pairs the host does not offer.
func TestAgreesWithTheHostRegistry(t *testing.T) {
	mine, theirs := All(), host.All()
	if len(mine) != len(theirs) {
		t.Fatalf("%d languages here, %d in core/language", len(mine), len(theirs))
	}
	for i := range mine {
		a, b := mine[i], theirs[i]
		if a.Name != b.Name || a.Code != b.Code || a.Code3 != b.Code3 || a.Script != b.Script || string(a.Dir) != string(b.Dir) {
			t.Errorf("entry %d: %+v here, %+v in core/language", i, a, b)
		}
		for _, c := range []string{a.Code, a.Code3, a.Name} {
			x, ok1 := ByCode(c)
			y, ok2 := host.ByCode(c)
			if ok1 != ok2 || x.Code != y.Code {
				t.Errorf("ByCode(%q) = %v %v here, %v %v in core/language", c, x.Code, ok1, y.Code, ok2)
			}
			x, err1 := Lookup(c)
			y, err2 := host.Lookup(c)
			if (err1 == nil) != (err2 == nil) || x.Code != y.Code {
				t.Errorf("Lookup(%q) = %v %v here, %v %v in core/language", c, x.Code, err1, y.Code, err2)
			}
		}
	}
	for _, c := range []string{"", "xx", "EN", "zh", "zho", "nor", "spa", "Español"} {
		x, ok1 := ByCode(c)
		y, ok2 := host.ByCode(c)
		if ok1 != ok2 || !reflect.DeepEqual(x.Code, y.Code) {
			t.Errorf("ByCode(%q) = %v %v here, %v %v in core/language", c, x.Code, ok1, y.Code, ok2)
		}
	}
}
