package pluginhost

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// ErrPluginCrashed wraps the error of a call whose plugin process died or
// became unreachable. The process is restarted, so the caller may retry.
var ErrPluginCrashed = errors.New("plugin process crashed and is being restarted; retry the call")

// ErrClosed is returned by calls after Close.
var ErrClosed = errors.New("plugin host is closed")

// process is one plugin binary and its current child process, started on
// first use and again whenever the previous one is gone.
type process struct {
	host *Host
	kind string // sdk.KindProvider or sdk.KindConverter
	name string
	path string

	mu       sync.Mutex
	client   *plugin.Client
	raw      any    // *sdk.ProviderClient or *sdk.ConverterClient
	gen      uint64 // counts starts, so a stale failure cannot kill a fresh process
	starts   int
	closed   bool
	caps     ports.Capabilities // providers
	formats  []string           // converters
	targets  []string           // converters: output formats besides docx ("pdf")
	maxConc  int                // converters: documents at once, 0 if not said
	starting sync.Mutex         // one eager restart at a time
	// A start that failed is not tried again before retryAt (1 s after the
	// first failure, doubling to a minute): a plugin that cannot start
	// would otherwise be spawned, and waited for, on every call.
	startFails int
	startErr   error
	retryAt    time.Time
}

// get returns the live plugin client, starting the process if needed.
func (p *process) get() (any, uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, 0, ErrClosed
	}
	if p.client != nil && !p.client.Exited() {
		return p.raw, p.gen, nil
	}
	if p.client != nil {
		p.host.log.Warn("plugin process exited; restarting", "plugin", p.name, "kind", p.kind)
		p.observeCrash()
		p.client.Kill()
		p.client = nil
	}
	if p.startFails > 0 && time.Now().Before(p.retryAt) {
		return nil, 0, fmt.Errorf("%w; not tried again for %s", p.startErr, time.Until(p.retryAt).Round(100*time.Millisecond))
	}
	if err := p.startLocked(); err != nil {
		p.startFails++
		p.startErr = err
		p.retryAt = time.Now().Add(min(time.Second<<min(p.startFails-1, 6), time.Minute))
		return nil, 0, err
	}
	p.startFails, p.startErr = 0, nil
	return p.raw, p.gen, nil
}

func (p *process) startLocked() error {
	stderr := &stderrTail{}
	client := plugin.NewClient(&plugin.ClientConfig{
		Stderr:           stderr,
		HandshakeConfig:  sdk.Handshake,
		Plugins:          plugin.PluginSet{p.kind: p.pluginGlue()},
		Cmd:              pluginCmd(p.path),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		Logger:           p.host.hclog.Named(p.name),
		StartTimeout:     p.host.opts.startTimeout,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: p.host.sockets},
		GRPCDialOptions:  p.host.opts.dialOpts,
	})
	raw, err := dispenseTied(client, p.kind)
	if err != nil {
		client.Kill() // waits for the plugin's stderr to be read
		return p.startError(err, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.host.opts.startTimeout)
	defer cancel()
	switch c := raw.(type) {
	case *sdk.ProviderClient:
		sc, err := c.Capabilities(ctx)
		if err != nil {
			client.Kill()
			return p.startError(fmt.Errorf("capabilities: %w", err), nil)
		}
		caps := capsFromSDK(sc)
		if caps.Name == "" {
			caps.Name = p.name
		}
		caps.Config = configOf(p.name)
		p.caps = caps
	case *sdk.ConverterClient:
		if err := c.Load(ctx); err != nil {
			client.Kill()
			return p.startError(fmt.Errorf("formats: %w", err), nil)
		}
		p.formats, p.targets, p.maxConc = c.Formats(), c.Targets(), c.MaxConcurrent()
	}
	p.client, p.raw = client, raw
	p.gen++
	p.starts++
	p.observeStart()
	return nil
}

func dispense(client *plugin.Client, kind string) (any, error) {
	rpc, err := client.Client()
	if err != nil {
		return nil, err
	}
	return rpc.Dispense(kind)
}

func (p *process) pluginGlue() plugin.Plugin {
	if p.kind == sdk.KindConverter {
		return &sdk.ConverterPlugin{}
	}
	return &sdk.ProviderPlugin{}
}

// startError says why a plugin did not start; stderr, when the plugin
// exited before its handshake, is what it said on its way out.
func (p *process) startError(err error, stderr *stderrTail) error {
	if said := stderr.last(); said != "" {
		err = fmt.Errorf("%s (%w)", said, err) // what the plugin said first: usually all a person needs
	}
	var verr *sdk.VersionError
	if errors.As(err, &verr) || strings.Contains(err.Error(), "incompatible API version") {
		return fmt.Errorf("%s plugin %q (%s) does not speak Dragoman plugin protocol v%d; rebuild it against the matching plugins/sdk: %w",
			p.kind, p.name, p.path, sdk.ProtocolVersion, err)
	}
	return fmt.Errorf("%s plugin %q (%s) did not start: %w", p.kind, p.name, p.path, err)
}

// failed inspects a call's error. When it means the process is gone (it
// exited, or its connection broke), the process is dropped and restarted
// in the background and the error is wrapped in ErrPluginCrashed.
func (p *process) failed(gen uint64, err error) error {
	if err == nil {
		return nil
	}
	p.mu.Lock()
	client := p.client
	current := gen == p.gen && client != nil
	lost := status.Code(err) == codes.Unavailable || (current && client.Exited())
	if !lost {
		p.mu.Unlock()
		return err
	}
	if current {
		p.client = nil
	}
	p.mu.Unlock()
	if current {
		p.host.log.Warn("plugin process lost during a call; restarting", "plugin", p.name, "kind", p.kind, "error", err)
		p.observeCrash()
		go func() {
			client.Kill()
			p.restart()
		}()
	}
	return fmt.Errorf("%s %q: %w: %v", p.kind, p.name, ErrPluginCrashed, err)
}

// restart starts the process eagerly so the next call finds it ready.
func (p *process) restart() {
	p.starting.Lock()
	defer p.starting.Unlock()
	if _, _, err := p.get(); err != nil && !errors.Is(err, ErrClosed) {
		p.host.log.Error("plugin restart failed; will retry on next use", "plugin", p.name, "error", err)
	}
}

// stop kills the process for good.
func (p *process) stop() {
	p.mu.Lock()
	p.closed = true
	client := p.client
	p.client = nil
	p.mu.Unlock()
	if client != nil {
		client.Kill()
	}
}

// healthy pings the live process; a failure kills and restarts it.
func (p *process) healthy(ctx context.Context) {
	p.mu.Lock()
	client, raw, gen := p.client, p.raw, p.gen
	p.mu.Unlock()
	if client == nil {
		p.restart()
		return
	}
	h, ok := raw.(sdk.HealthChecker)
	if !ok {
		return
	}
	err := h.Health(ctx)
	if err == nil {
		return
	}
	p.host.log.Warn("plugin failed its health check; restarting", "plugin", p.name, "kind", p.kind, "error", err)
	p.observeCrash()
	p.mu.Lock()
	if p.gen == gen && p.client == client {
		p.client = nil
	}
	p.mu.Unlock()
	client.Kill()
	p.restart()
}

// pid is the child's process id, 0 if none is running (for tests and logs).
func (p *process) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client == nil {
		return 0
	}
	if rc := p.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}
