// Command oldproto is a test provider built for another plugin protocol
// version than the host's.
package main

import (
	"context"

	"github.com/hashicorp/go-plugin"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct{}

func (engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "old", AnyToAny: true}, nil
}

func (engine) Translate(_ context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	return sdk.TranslateResult{Segments: req.Segments}, nil
}

func main() {
	hs := sdk.Handshake
	hs.ProtocolVersion = sdk.ProtocolVersion + 1
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hs,
		Plugins:         plugin.PluginSet{sdk.KindProvider: &sdk.ProviderPlugin{Impl: engine{}}},
		GRPCServer:      plugin.DefaultGRPCServer,
	})
}
