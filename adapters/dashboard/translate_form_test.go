package dashboard

import "testing"

// The form names the formats as the page always did, from docformat's list.
func TestFormatsText(t *testing.T) {
	if got := formatsText(); got != "Word (.docx, .doc), OpenDocument (.odt) or RTF" {
		t.Errorf("formats %q", got)
	}
}
