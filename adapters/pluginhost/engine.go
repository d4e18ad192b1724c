package pluginhost

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// engine is a provider plugin as a ports.Provider that survives restarts
// of its process.
type engine struct{ p *process }

func (e *engine) client() (*sdk.ProviderClient, uint64, error) {
	raw, gen, err := e.p.get()
	if err != nil {
		return nil, 0, err
	}
	return raw.(*sdk.ProviderClient), gen, nil
}

// Capabilities asks the running plugin afresh.
func (e *engine) Capabilities(ctx context.Context) (ports.Capabilities, error) {
	c, gen, err := e.client()
	if err != nil {
		return ports.Capabilities{}, err
	}
	sc, err := c.Capabilities(ctx)
	if err != nil {
		return ports.Capabilities{}, e.p.failed(gen, err)
	}
	caps := capsFromSDK(sc)
	if caps.Name == "" {
		caps.Name = e.p.name
	}
	caps.Config = configOf(e.p.name)
	return caps, nil
}

// Translate sends one batch. If the process dies meanwhile, the error wraps
// ErrPluginCrashed and the next call goes to a fresh process.
func (e *engine) Translate(ctx context.Context, req ports.TranslateRequest) (ports.TranslateResult, error) {
	c, gen, err := e.client()
	if err != nil {
		return ports.TranslateResult{}, err
	}
	res, err := c.Translate(ctx, requestToSDK(req))
	return resultFromSDK(res), described(e.p.failed(gen, err))
}
