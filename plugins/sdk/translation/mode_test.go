package translation

import "testing"

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
	if err == nil || err.Error() != "translation_mode is not one of professional, full, literal, extreme" {
		t.Errorf("unknown mode: %v", err)
	}
}
