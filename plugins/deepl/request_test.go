package main

import (
	"github.com/dragoman-translate/dragoman/adapters/pluginhost/enginetest"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

func requestFor(src, tgt string) ports.TranslateRequest {
	return ports.TranslateRequest{Source: src, Target: tgt, Mode: translation.Full, Segments: enginetest.Segments}
}
