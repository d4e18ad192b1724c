package rtltest

import "testing"

// Rule 8's number check: UBA rule W2 turns European digits into Arabic
// numbers only after an Arabic-script letter with no other strong letter
// in between; a Hindi word left untranslated in Urdu is such a letter.
func TestNumberAfterArabicLetter(t *testing.T) {
	for text, flagged := range map[string]bool{
		"ر 1.1":         true,
		"ر-अंतराल 1.1":  false, // Devanagari after the Urdu letter
		"ر Office 1.1":  false,
		"ر \u200e1.1":   false,
		"ر، 2024-03-15": true,
	} {
		if got := arabicNum.MatchString(text); got != flagged {
			t.Errorf("%q: flagged %v, want %v", text, got, flagged)
		}
	}
}
