package sdk

import (
	"github.com/hashicorp/go-plugin"
)

// ProtocolVersion is the version of the plugin protocol
// (package dragoman.plugin.v1). The host refuses plugins built with another.
const ProtocolVersion = 1

// Plugin kinds, as go-plugin names them in a PluginSet.
const (
	KindProvider  = "provider"
	KindConverter = "converter"
)

// Binary name prefixes the host looks for in its plugin directory.
const (
	ProviderPrefix  = "dragoman-provider-"
	ConverterPrefix = "dragoman-converter-"
)

// Handshake is the go-plugin handshake shared by host and plugins. The
// magic cookie stops a plugin binary from doing anything when a person
// runs it by hand.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "DRAGOMAN_PLUGIN",
	MagicCookieValue: "7c1f4b0e-dragoman-plugin-v1-9a3d",
}
