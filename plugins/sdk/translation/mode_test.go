package translation

import (
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	if m, err := ParseMode(""); err != nil || m != Professional {
		t.Errorf("default mode %q %v", m, err)
	}
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	_, err := ParseMode("poetic")
	if err == nil || !strings.HasPrefix(err.Error(), "translation_mode is not one of professional, full, ") {
		t.Fatalf("unknown mode: %v", err)
	}
	for _, m := range Modes {
		if !strings.Contains(err.Error(), string(m)) {
			t.Errorf("the refusal does not name %s: %v", m, err)
		}
	}
}

// Every mode says what it is, on a form and in the API.
func TestEveryModeIsDescribed(t *testing.T) {
	if len(Modes) != len(modes) || Modes[0] != Default {
		t.Fatalf("Modes %v, the default %q first", Modes, Default)
	}
	for _, m := range Modes {
		if a := m.About(); a.Label == "" || len(a.Help) < 20 || len(a.API) < 10 {
			t.Errorf("%s: %+v", m, a)
		}
	}
	if (Mode("poetic").About() != About{}) {
		t.Error("an unknown mode is described")
	}
}
