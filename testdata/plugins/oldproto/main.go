// Command oldproto is a test provider built for another plugin protocol
// version than the host's.
package main

import (
	"context"

	"github.com/hashicorp/go-plugin"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct{}

func (engine) Capabilities(context.Context) (ports.Capabilities, error) {
	return ports.Capabilities{Name: "old", AnyToAny: true}, nil
}

func (engine) Translate(_ context.Context, req ports.TranslateRequest) (ports.TranslateResult, error) {
	return ports.TranslateResult{Segments: req.Segments}, nil
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
