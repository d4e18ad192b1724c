package sdk

import (
	"github.com/hashicorp/go-plugin"
)

// ServeProvider runs p as a provider plugin until the host stops it.
func ServeProvider(p Provider) {
	serve(KindProvider, &ProviderPlugin{Impl: p})
}

// ServeConverter runs c as a converter plugin until the host stops it.
func ServeConverter(c Converter) {
	serve(KindConverter, &ConverterPlugin{Impl: c})
}

func serve(kind string, p plugin.Plugin) {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         plugin.PluginSet{kind: p},
		GRPCServer:      plugin.DefaultGRPCServer,
	})
}
