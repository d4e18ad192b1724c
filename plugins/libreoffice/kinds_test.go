package main

import (
	"slices"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// The converter's formats are the pool's source kinds, named as docformat
// names the sniffed formats, so a sniffed document finds its kind.
func TestFormatsAreThePoolsSourceKinds(t *testing.T) {
	got := (&converter{}).Formats()
	want := []string{string(docformat.DOC), string(docformat.ODT), string(docformat.RTF), string(docformat.WordML)}
	if !slices.Equal(got, want) {
		t.Errorf("formats %v, want %v", got, want)
	}
}
