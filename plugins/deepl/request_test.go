package main

import (
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/internal/httpengine/enginetest"
)

func requestFor(src, tgt string) ports.TranslateRequest {
	return ports.TranslateRequest{Source: src, Target: tgt, Mode: job.Full, Segments: enginetest.Segments}
}
