// Package pluginhost runs Dragoman's plugins: it finds the plugin binaries
// in a directory, starts them as child processes with hashicorp/go-plugin
// over gRPC, restarts them when they die, and offers them to the core as a
// ports.EngineRegistry and a ports.Converter.
package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// Host owns the plugin processes. It implements ports.EngineRegistry.
type Host struct {
	dir   string
	log   *slog.Logger
	hclog hclog.Logger
	opts  options

	engines    []*process // in priority order
	converters []*process // by name

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	sockets   string // go-plugin's unix sockets live here (see sockets.go)
}

var _ ports.EngineRegistry = (*Host)(nil)

// Option tunes a Host.
type Option func(*options)

type options struct {
	healthInterval time.Duration
	startTimeout   time.Duration
	observer       Observer          // see observe.go
	dialOpts       []grpc.DialOption // see observe.go
}

// WithHealthInterval sets how often every plugin is pinged (default 10 s;
// 0 turns the pings off, crashes are still noticed on the next call).
func WithHealthInterval(d time.Duration) Option { return func(o *options) { o.healthInterval = d } }

// WithStartTimeout bounds a plugin's start, handshake and first query
// (default 20 s).
func WithStartTimeout(d time.Duration) Option { return func(o *options) { o.startTimeout = d } }

// New starts the provider plugins of the enabled engines (in priority
// order, e.g. ParseEngines(os.Getenv("DRAGOMAN_ENGINES"))) and every
// converter plugin found in dir. An enabled engine without a binary, or
// one that does not start, is an error; nothing is left running then.
func New(dir string, engines []string, logger *slog.Logger, opts ...Option) (*Host, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &Host{
		dir:   dir,
		log:   logger,
		hclog: newHCLogger(logger),
		opts:  options{healthInterval: 10 * time.Second, startTimeout: 20 * time.Second},
		stop:  make(chan struct{}),
	}
	for _, o := range opts {
		o(&h.opts)
	}
	if len(engines) == 0 {
		return nil, errors.New("no translation engine enabled: set DRAGOMAN_ENGINES")
	}
	sockets, err := newSocketDir()
	if err != nil {
		return nil, fmt.Errorf("plugin socket directory: %w", err)
	}
	h.sockets = sockets
	providers, err := discover(dir, sdk.ProviderPrefix)
	if err != nil {
		h.Close()
		return nil, err
	}
	converters, err := discover(dir, sdk.ConverterPrefix)
	if err != nil {
		h.Close()
		return nil, err
	}
	for _, name := range engines {
		path, ok := providers[name]
		if !ok {
			h.Close()
			return nil, fmt.Errorf("engine %q is enabled (DRAGOMAN_ENGINES) but the plugin directory %s has no executable %s%s; build it (make plugins) or remove the engine from DRAGOMAN_ENGINES",
				name, dir, sdk.ProviderPrefix, name)
		}
		h.engines = append(h.engines, &process{host: h, kind: sdk.KindProvider, name: name, path: path})
	}
	for _, name := range sortedKeys(converters) {
		h.converters = append(h.converters, &process{host: h, kind: sdk.KindConverter, name: name, path: converters[name]})
	}
	for _, p := range h.all() {
		if _, _, err := p.get(); err != nil {
			h.Close()
			return nil, err
		}
		h.log.Debug("plugin started", "plugin", p.name, "kind", p.kind, "path", p.path)
	}
	if h.opts.healthInterval > 0 {
		h.wg.Add(1)
		go h.watch()
	}
	return h, nil
}

func (h *Host) all() []*process {
	return append(append([]*process(nil), h.engines...), h.converters...)
}

// Engines lists the enabled engines that are up, in priority order,
// restarting any whose process is gone. It fails only when none is up.
func (h *Host) Engines(ctx context.Context) ([]ports.Engine, error) {
	var out []ports.Engine
	var errs []error
	for _, p := range h.engines {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if _, _, err := p.get(); err != nil {
			if errors.Is(err, ErrClosed) {
				return nil, err
			}
			h.log.Warn("engine unavailable", "engine", p.name, "error", err)
			errs = append(errs, err)
			continue
		}
		p.mu.Lock()
		caps := p.caps
		p.mu.Unlock()
		out = append(out, ports.Engine{Name: p.name, Provider: &engine{p: p}, Caps: caps})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no translation engine is up: %w", errors.Join(errs...))
	}
	return out, nil
}

// Converter returns the converter plugins as one ports.Converter that picks
// a plugin by source format, or nil when the directory has none.
func (h *Host) Converter() ports.Converter {
	if len(h.converters) == 0 {
		return nil
	}
	return &converter{procs: h.converters}
}

// PDFRenderer renders documents to PDF through the converter plugins that
// can (the LibreOffice one); nil without any converter plugin.
func (h *Host) PDFRenderer() ports.PDFRenderer {
	if len(h.converters) == 0 {
		return nil
	}
	return &converter{procs: h.converters}
}

// Close stops the health checks and kills every plugin process; it waits
// until they are gone.
func (h *Host) Close() error {
	h.closeOnce.Do(func() {
		close(h.stop)
		h.wg.Wait()
		var wg sync.WaitGroup
		for _, p := range h.all() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.stop()
			}()
		}
		wg.Wait()
		if h.sockets != "" {
			_ = os.RemoveAll(h.sockets)
		}
	})
	return nil
}

// watch pings every plugin periodically and restarts the unwell.
func (h *Host) watch() {
	defer h.wg.Done()
	t := time.NewTicker(h.opts.healthInterval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		for _, p := range h.all() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			p.healthy(ctx)
			cancel()
		}
	}
}
