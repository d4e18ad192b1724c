package pluginhost

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// What an engine notes about a segment (the words it did not know)
// crosses the plugin protocol beside the segments, and the text carries no
// mark; an engine that notes nothing (pseudo, like any plugin built before
// notes) answers as before.
func TestEngineNotesCrossThePluginProtocol(t *testing.T) {
	h := newHost(t, pluginDir, []string{"apertium", "pseudo"})
	req := ports.TranslateRequest{Source: "en", Target: "es", Mode: translation.Full,
		Segments: []string{"The dog sleeps.", "The frobnicator zorbles quickly."}}
	res, err := engineByName(t, h, "apertium").Provider.Translate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || res.Notes[0].Segment != 1 || !slices.Equal(res.Notes[0].Unknown, []string{"frobnicator", "zorbles"}) {
		t.Errorf("notes %+v", res.Notes)
	}
	if strings.Contains(res.Segments[1], "*") {
		t.Errorf("a mark in %q", res.Segments[1])
	}
	res, err = engineByName(t, h, "pseudo").Provider.Translate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Notes != nil || len(res.Segments) != 2 {
		t.Errorf("pseudo: notes %+v, %d segments", res.Notes, len(res.Segments))
	}
}
