// Command dragoman-provider-example is the worked example of a third-party
// engine built with the plugin SDK: it "translates" by upper-casing the text
// between inline codes, so the codes are kept exactly. Copy this package,
// replace translate with calls to your engine, build it as
// dragoman-provider-<name> into the plugin directory and add <name> to
// DRAGOMAN_ENGINES.
package main

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

type engine struct{}

// Capabilities is the handshake: which pairs, batch limits and modes.
func (engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "example", AnyToAny: true, MaxSegments: 100, Modes: []sdk.Mode{sdk.Full}}, nil
}

// Translate answers one batch, segment for segment.
func (engine) Translate(_ context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
	out := make([]string, len(r.Segments))
	for i, s := range r.Segments {
		toks := tagged.Tokenize(s) // text and the <g>/<x> codes, unescaped
		for j := range toks {
			if toks[j].Kind == tagged.Text {
				toks[j].Text = strings.ToUpper(toks[j].Text)
			}
		}
		out[i] = tagged.Render(toks)
	}
	return sdk.TranslateResult{Segments: out}, nil
}

func main() { sdk.ServeProvider(engine{}) }
