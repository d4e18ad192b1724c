package main

import (
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

var pluginDir string

func TestMain(m *testing.M) { enginetest.Main(m, "example", &pluginDir) }

func TestExampleThroughPluginHost(t *testing.T) {
	e, err := enginetest.Start(t, pluginDir, "example", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Provider.Translate(t.Context(), ports.TranslateRequest{Source: "en", Target: "de", Mode: translation.Full, Segments: enginetest.Segments})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckTranslated(t, enginetest.Segments, res.Segments)
}
