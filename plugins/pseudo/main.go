// Command dragoman-provider-pseudo is a pseudo-localisation engine: it
// serves every language pair without any model, writing each segment with
// the target's script, about 30 % longer and with its words reversed, so
// that a whole pipeline (layout, RTL, fonts, inline codes surviving word
// reordering, text expansion) can be tested and demonstrated offline.
package main

import (
	"context"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct{}

func (engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "pseudo", AnyToAny: true, Modes: sdk.Modes}, nil
}

func (engine) Translate(_ context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	script := scriptFor(req.Target)
	out := make([]string, len(req.Segments))
	for i, s := range req.Segments {
		out[i] = pseudo(s, script)
	}
	return sdk.TranslateResult{Segments: out}, nil
}

func main() { sdk.ServeProvider(engine{}) }
