// Command dragoman-provider-pseudo is a pseudo-localisation engine: it
// serves every language pair without any model, writing each segment with
// the target's script, about 30 % longer and with its words reversed, so
// that a whole pipeline (layout, RTL, fonts, inline codes surviving word
// reordering, text expansion) can be tested and demonstrated offline.
package main

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct{}

func (engine) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{Name: "pseudo", AnyToAny: true, Modes: job.Modes}, nil
}

func (engine) Translate(_ context.Context, req ports.TranslateRequest) (ports.TranslateResult, error) {
	script := scriptFor(req.Target)
	out := make([]string, len(req.Segments))
	for i, s := range req.Segments {
		out[i] = pseudo(s, script)
	}
	return ports.TranslateResult{Segments: out}, nil
}

func main() { sdk.ServeProvider(engine{}) }
