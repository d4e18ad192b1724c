package pluginhost

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// Observer is told when plugin processes start and when they are found
// dead or unwell (the metrics).
type Observer interface {
	// PluginStarted: kind is sdk.KindProvider or sdk.KindConverter;
	// restart is false for the plugin's first start.
	PluginStarted(kind, name string, restart bool)
	PluginCrashed(kind, name string)
}

// WithObserver reports plugin starts and crashes to o.
func WithObserver(o Observer) Option { return func(opt *options) { opt.observer = o } }

// WithGRPCDialOptions adds options to the gRPC connection to every plugin,
// e.g. a stats handler that traces the calls.
func WithGRPCDialOptions(d ...grpc.DialOption) Option {
	return func(opt *options) { opt.dialOpts = append(opt.dialOpts, d...) }
}

func (p *process) observeStart() {
	if o := p.host.opts.observer; o != nil {
		o.PluginStarted(p.kind, p.name, p.starts > 1)
	}
}

func (p *process) observeCrash() {
	if o := p.host.opts.observer; o != nil {
		o.PluginCrashed(p.kind, p.name)
	}
}

// Ready checks, for the readiness probe, that every plugin process is
// running and answers its health check. Unlike a call, it restarts
// nothing: the health watcher and the next call do that.
func (h *Host) Ready(ctx context.Context) error {
	var errs []error
	for _, p := range h.all() {
		p.mu.Lock()
		client, raw, closed := p.client, p.raw, p.closed
		p.mu.Unlock()
		switch {
		case closed:
			return ErrClosed
		case client == nil || client.Exited():
			errs = append(errs, fmt.Errorf("%s plugin %q is not running", p.kind, p.name))
			continue
		}
		if hc, ok := raw.(sdk.HealthChecker); ok {
			if err := hc.Health(ctx); err != nil {
				errs = append(errs, fmt.Errorf("%s plugin %q: %w", p.kind, p.name, err))
			}
		}
	}
	return errors.Join(errs...)
}
