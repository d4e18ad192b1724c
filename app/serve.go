package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/spf13/cobra"

	"github.com/dragoman-translate/dragoman/adapters/dashboard"
	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/app/internal/instance"
	"github.com/dragoman-translate/dragoman/core/pipeline"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/settle"
)

// runPipeline registers the stages, starts the bus and republishes the
// events of jobs that were in flight when the process last stopped. An
// api process runs none of it: it only publishes the jobs it accepts.
func runPipeline(lc fx.Lifecycle, c *Config, p *pipeline.Pipeline, bus *eventbus.Bus, svc service.UseCases, st *sqlstore.Store, log *slog.Logger) {
	if !c.runsStages() {
		return
	}
	p.Register()
	stop := make(chan struct{})
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			if err := bus.Start(ctx); err != nil {
				return err
			}
			// Alone on its data dir, this process recovers every job in
			// flight; beside others (an external NATS) only stale ones.
			idle := time.Duration(0)
			if c.NATSURL != "" {
				idle = staleJob
			}
			if err := p.Recover(ctx, idle); err != nil {
				return fmt.Errorf("recover jobs in flight: %w", err)
			}
			settler := &settle.Settler{Jobs: st, Owing: st, Quota: st, Blobs: p.Blobs, Bus: bus, Clock: systemClock{}}
			go sweep(svc, p, settler, log, stop, done)
			return nil
		},
		OnStop: func(ctx context.Context) error {
			close(stop)
			select {
			case <-done:
			case <-ctx.Done():
			}
			// Stop the stages before the plugins they call are killed (fx
			// stops in reverse order, and the plugins started after the bus);
			// interrupted events go back to the stream for the next start.
			err := bus.Close()
			return err
		},
	})
}

// staleJob is how long a job may go without a stage change before any
// process republishes its event; longer than any stage should take.
const staleJob = 30 * time.Minute

// settleAfter is how long a job that ended is left to whoever ended it
// before the sweep settles what it still owes (its event, its clean-up).
const settleAfter = 30 * time.Second

// sweep deletes expired downloads and jobs past their retention, settles
// the ended jobs whose event or clean-up an outage interrupted, and
// republishes the events of jobs that went stale. What fails (the store
// or the bucket still down) is tried again on the next round.
func sweep(svc service.UseCases, p *pipeline.Pipeline, settler *settle.Settler, log *slog.Logger, stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(15 * time.Second)
	defer t.Stop()
	for {
		if err := svc.Jobs.Sweep(context.Background()); err != nil {
			log.Warn("sweep failed", "err", err)
		}
		if err := settler.Due(context.Background(), settleAfter); err != nil {
			log.Warn("settling ended jobs failed; tried again on the next sweep", "err", err)
		}
		// Pending jobs after a minute, others when stale: looked for on
		// every round, so the jobs an api process stored while the bus was
		// down start within seconds of their minute once it is back.
		if err := p.Recover(context.Background(), staleJob); err != nil {
			log.Warn("recovery failed", "err", err)
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// runServers listens on HTTPS for the API and on HTTP for redirects; a
// worker serves only the probes, on HTTPS.
func runServers(lc fx.Lifecycle, c *Config, api *httpapi.API, dash *dashboard.Dashboard, log *slog.Logger, m *telemetry.Metrics, t *telemetry.Tracing, access accessLog) error {
	cert, err := loadCertificate(c)
	if err != nil {
		return fmt.Errorf("TLS certificate: %w", err)
	}
	handler := c.perAddress(httpguard.Bodies(site(api.Handler(), dash), c.bodyLimits(), refuse))
	if !c.servesAPI() {
		handler = probesOnly(handler)
	}
	handler = observed(handler, c, m, t, access)
	https := &http.Server{
		Handler:           handler,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	servers := []*http.Server{https}
	var plain *http.Server
	if c.HTTPAddr != "" && c.servesAPI() {
		// The redirect reads no body, so the server reads what is left of
		// it (up to 256 KB) before answering: that read is bounded too.
		redirect := c.perAddress(httpguard.Bodies(redirectToHTTPS(c, handler), c.bodyLimits(), refuse))
		plain = &http.Server{Handler: redirect, ReadHeaderTimeout: headerTimeout, IdleTimeout: 2 * time.Minute}
		servers = append(servers, plain)
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			// Both addresses are bound before either serves: a client that
			// got an answer on HTTPS finds the redirecting listener there too.
			ln, err := c.listen(c.HTTPSAddr)
			if err != nil {
				return portTaken(err, "HTTPS", "https-addr", c.HTTPSAddr)
			}
			var pl net.Listener
			if plain != nil {
				if pl, err = c.listen(c.HTTPAddr); err != nil {
					ln.Close()
					return portTaken(err, "HTTP", "http-addr", c.HTTPAddr)
				}
				// The start-up banner names the bound addresses, so that port
				// 0 (any free port) serves scripts and tests that start a server.
				c.HTTPAddr = pl.Addr().String()
				go func() { _ = plain.Serve(pl) }()
			}
			c.HTTPSAddr = ln.Addr().String()
			go func() { _ = https.ServeTLS(ln, "", "") }()
			return nil
		},
		OnStop: func(ctx context.Context) error {
			var errs []error
			for _, s := range servers {
				errs = append(errs, s.Shutdown(ctx))
			}
			return errors.Join(errs...)
		},
	})
	return nil
}

// serveCommand is `dragoman serve`.
func serveCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "run the API and the pipeline",
		Args:  cmdline.NoArgs,
	}
	f := addServeFlags(cmd.Flags())
	cmdline.Complete(cmd, "role", RoleAll, RoleAPI, RoleWorker)
	cmdline.Complete(cmd, "log-format", "text", "json")
	cmdline.Complete(cmd, "log-level", "debug", "info", "warn", "error")
	cmdline.CompleteDirs(cmd, "data-dir")
	cmdline.CompleteDirs(cmd, "plugin-dir")
	cmdline.CompleteFiles(cmd, "tls-cert", "pem", "crt")
	cmdline.CompleteFiles(cmd, "tls-key", "pem", "key")
	cmd.SetUsageTemplate(cmd.UsageTemplate() + serveEnvHelp)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		c, err := f.config()
		if err != nil {
			return err
		}
		return serve(c, cmd.ErrOrStderr())
	}
	return cmd
}

func serve(c *Config, stderr io.Writer) error {
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return err
	}
	start := newStartupLog(c, stderr)
	if killed := instance.SweepStrays(c.DataDir); len(killed) > 0 {
		start.say(fmt.Sprintf("killed %d processes left by an earlier server on this data dir: %v", len(killed), killed),
			"killed processes left by an earlier server on this data dir", "pids", killed)
	}
	if err := instance.Tag(c.DataDir); err != nil {
		return err
	}
	softMemoryLimit()
	logOpt := fx.WithLogger(func() fxevent.Logger { return fxevent.NopLogger })
	if c.LogLevel == "debug" {
		logOpt = fx.WithLogger(func(l *slog.Logger) fxevent.Logger { return &fxevent.SlogLogger{Logger: l} })
	}
	var bus *eventbus.Bus
	app := fx.New(modules(c, stderr), fx.Populate(&bus), logOpt, fx.StartTimeout(time.Minute), fx.StopTimeout(30*time.Second))
	if err := app.Err(); err != nil {
		return err
	}
	startCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Start(startCtx); err != nil {
		return err
	}
	start.banner(c, bus)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	stopCtx, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	return app.Stop(stopCtx)
}
