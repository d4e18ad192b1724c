package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/dashboard"
	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/docx/structure"
	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/langdetect"
	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/adapters/preview"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
	"github.com/dragoman-translate/dragoman/adapters/tmx"
	"github.com/dragoman-translate/dragoman/adapters/urlfetch"
	"github.com/dragoman-translate/dragoman/adapters/webhook"
	"github.com/dragoman-translate/dragoman/adapters/xliff"
	"github.com/dragoman-translate/dragoman/core/pipeline"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// systemClock is the wall clock, in UTC.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now().UTC() }

func newID() string { return uuid.NewString() }

func newLogger(c *Config, stderr io.Writer) *slog.Logger {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.LogLevel)); err != nil {
		lvl = slog.LevelWarn
	}
	return slog.New(telemetry.NewLogHandler(stderr, c.LogFormat, lvl))
}

// openStore opens PostgreSQL when a URL is configured, else SQLite in the data dir.
func openStore(lc fx.Lifecycle, c *Config) (*sqlstore.Store, error) {
	var (
		s   *sqlstore.Store
		err error
	)
	if c.DatabaseURL != "" {
		s, err = sqlstore.OpenPostgres(c.DatabaseURL)
	} else {
		s, err = sqlstore.OpenSQLite(filepath.Join(c.DataDir, "dragoman.db"))
	}
	if err != nil {
		return nil, err
	}
	key, err := secretKey(c)
	if err != nil {
		s.Close()
		return nil, err
	}
	if err := s.SetSecretKey(key); err != nil {
		s.Close()
		return nil, err
	}
	lc.Append(fx.StopHook(s.Close))
	return s, nil
}

// secretKey is the configured key that encrypts webhook secrets, or one
// generated once into the data dir.
func secretKey(c *Config) ([]byte, error) {
	if c.SecretKey != "" {
		return hex.DecodeString(strings.TrimSpace(c.SecretKey))
	}
	path := filepath.Join(c.DataDir, "secret.key")
	if b, err := os.ReadFile(path); err == nil {
		return hex.DecodeString(strings.TrimSpace(string(b)))
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		return nil, err
	}
	return key, nil
}

func openBus(lc fx.Lifecycle, c *Config, log *slog.Logger, g *abandonedEvents) (*eventbus.Bus, error) {
	opts := []eventbus.Option{eventbus.WithConcurrency(max(c.Workers, 1)), eventbus.WithOnGiveUp(g.forward)}
	var (
		b   *eventbus.Bus
		err error
	)
	if c.NATSURL != "" {
		b, err = eventbus.NewNATS(c.NATSURL, log, opts...)
	} else {
		opts = append(opts, eventbus.WithListen(c.NATSListen))
		b, err = eventbus.NewEmbedded(c.DataDir, log, opts...) // stores in <data dir>/events
	}
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(b.Close))
	return b, nil
}

// openBlobs opens the S3-compatible store when a URL is configured, else
// the documents folder in the data dir.
func openBlobs(c *Config) (ports.BlobStore, error) {
	if c.BlobURL == "" {
		return blobstore.NewLocal(filepath.Join(c.DataDir, "documents"))
	}
	sc, err := blobstore.ParseS3URL(c.BlobURL)
	if err != nil {
		return nil, err
	}
	sc.AccessKey, sc.SecretKey = os.Getenv("DRAGOMAN_S3_ACCESS_KEY"), os.Getenv("DRAGOMAN_S3_SECRET_KEY")
	sc.SpoolDir = filepath.Join(c.DataDir, "spool")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return blobstore.NewS3(ctx, sc)
}

func openPlugins(lc fx.Lifecycle, c *Config, log *slog.Logger, m *telemetry.Metrics, t *telemetry.Tracing) (*pluginhost.Host, error) {
	h, err := pluginhost.New(c.PluginDir, pluginhost.ParseEngines(c.Engines), log, pluginOptions(m, t)...)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(h.Close))
	return h, nil
}

// detector is shared by submission and pipeline: its models load once,
// lazily, on the first detection.
var detector = langdetect.New()

func newService(c *Config, st *sqlstore.Store, blobs ports.BlobStore, bus *eventbus.Bus, plugins *pluginhost.Host, layout *rtl.Layout) *service.Service {
	cfg := service.DefaultConfig
	cfg.DownloadTTL, cfg.JobRetention, cfg.AllowPrivateURLs = c.DownloadTTL, c.JobRetention, c.AllowPrivateURLs
	return &service.Service{
		Config: cfg, Jobs: st, Accounts: st, Quota: st, Webhooks: st, Blobs: blobs, Bus: bus,
		Limiter: st, Engines: plugins, Layout: layout,
		// Source auto: the language is detected at submission too, so an
		// unserved pair is refused before the job exists.
		Docs: docx.New(), Detector: detector,
		Fetcher: urlfetch.New(urlfetch.Config{AllowPrivate: c.AllowPrivateURLs}),
		Clock:   systemClock{}, NewID: newID,
		JobCatalog: st, Users: st, KeyCatalog: st, Pages: previewRenderer(plugins), History: st,
		PDF:        plugins.PDFRenderer(),
		Glossaries: st,
		XLIFF:      xliff.Codec{}, Memory: st, TMX: tmx.Codec{},
	}
}

// previewRenderer renders previews on the converter plugin's warm
// LibreOffice pool when there is one, else with a fresh soffice each.
func previewRenderer(plugins *pluginhost.Host) *preview.Renderer {
	r := preview.New()
	r.PDF = plugins.PDFRenderer()
	return r
}

func newPipeline(c *Config, st *sqlstore.Store, blobs ports.BlobStore, bus *eventbus.Bus, plugins *pluginhost.Host, layout *rtl.Layout, log *slog.Logger, g *abandonedEvents, hooks *webhook.Worker) (*pipeline.Pipeline, error) {
	routes, err := translate.ParseRoutes(os.Getenv("DRAGOMAN_ROUTES"))
	if err != nil {
		return nil, fmt.Errorf("DRAGOMAN_ROUTES: %w", err)
	}
	p := &pipeline.Pipeline{
		Jobs: st, Accounts: st, Quota: st, Blobs: blobs, Bus: bus,
		Docs: docx.New(), Layout: layout, Detector: detector, Structure: structure.Checker{},
		Translator: &translate.Translator{
			Engines: plugins, TM: st, Routes: routes,
			BatchSegments: c.BatchSegments, Concurrency: c.EngineConcurrency,
			// Plugins retry their vendor's errors themselves; only a crashed
			// (and restarted) plugin is worth another try from here.
			Retryable: func(err error) bool { return errors.Is(err, pluginhost.ErrPluginCrashed) },
		},
		Engines:    plugins,
		Notifier:   webhook.NewNotifier(st, c.PublicURL, systemClock{}, hooks.Wake),
		Glossaries: st,
		Memory:     st,
		Clock:      systemClock{}, NewID: newID, Log: log,
		RetryFor: c.RetryFor,
	}
	if conv := plugins.Converter(); conv != nil {
		p.Converter = conv
	}
	p.PDF = plugins.PDFRenderer()
	g.p.Store(p)
	return p, nil
}

// newWebhookWorker delivers queued webhook events; every process that
// runs stages (role all or worker) runs one and they share the queue
// through the database.
func newWebhookWorker(lc fx.Lifecycle, c *Config, st *sqlstore.Store, log *slog.Logger, wh *telemetry.Webhooks) *webhook.Worker {
	w := webhook.NewWorker(wh.Queue(st), webhook.Config{AllowPrivate: c.AllowPrivateURLs}, systemClock{}, log)
	if c.runsStages() {
		lc.Append(fx.Hook{OnStart: func(context.Context) error { w.Start(); return nil }, OnStop: w.Stop})
	}
	return w
}

// probePaths are what a worker serves on HTTP: the probes, nothing else.
var probePaths = map[string]bool{httpapi.Prefix + "/health": true, httpapi.Prefix + "/ready": true}

// probesOnly passes GET and HEAD requests for the probes to h and answers
// everything else with 404.
func probesOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if probePaths[r.URL.Path] && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	})
}

// runServers listens on HTTPS for the API and on HTTP for redirects; a
// worker serves only the probes, on HTTPS.
func runServers(lc fx.Lifecycle, c *Config, api *httpapi.API, dash *dashboard.Dashboard, log *slog.Logger, m *telemetry.Metrics, t *telemetry.Tracing, access accessLog) error {
	cert, err := loadCertificate(c)
	if err != nil {
		return fmt.Errorf("TLS certificate: %w", err)
	}
	handler := boundUploads(site(api.Handler(), dash), c.UploadIdleTimeout, c.UploadTimeout)
	if !c.servesAPI() {
		handler = probesOnly(handler)
	}
	handler = observed(handler, m, t, access)
	https := &http.Server{
		Handler:           handler,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 15 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
	servers := []*http.Server{https}
	var plain *http.Server
	if c.HTTPAddr != "" && c.servesAPI() {
		plain = &http.Server{Handler: redirectToHTTPS(c, handler), ReadHeaderTimeout: 15 * time.Second}
		servers = append(servers, plain)
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln, err := listen(c.HTTPSAddr)
			if err != nil {
				return portTaken(err, "HTTPS", "https-addr", c.HTTPSAddr)
			}
			go func() { _ = https.ServeTLS(ln, "", "") }()
			// The start-up banner names the bound addresses, so that port
			// 0 (any free port) serves scripts and tests that start a server.
			c.HTTPSAddr = ln.Addr().String()
			if plain != nil {
				pl, err := listen(c.HTTPAddr)
				if err != nil {
					ln.Close()
					return portTaken(err, "HTTP", "http-addr", c.HTTPAddr)
				}
				go func() { _ = plain.Serve(pl) }()
				c.HTTPAddr = pl.Addr().String()
			}
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

// modules is the whole service graph.
func modules(c *Config, stderr io.Writer) fx.Option {
	return fx.Options(pipelineModules(c, stderr), fx.Invoke(runServers))
}

// pipelineModules is the service and its running pipeline without the
// HTTP servers (translate --local runs it in-process).
func pipelineModules(c *Config, stderr io.Writer) fx.Option {
	return fx.Options(
		fx.Supply(c),
		observeModule(c, stderr),
		fx.Provide(
			func() *slog.Logger { return newLogger(c, stderr) },
			func() *abandonedEvents { return &abandonedEvents{} },
			openStore,
			openBlobs,
			openBus,
			openPlugins,
			func() *rtl.Layout { return rtl.New(rtl.Options{}) },
			newService,
			newWebhookWorker,
			newPipeline,
			func(s *service.Service, log *slog.Logger) *httpapi.API { return httpapi.New(s, log) },
			newDashboard,
		),
		fx.Invoke(runPipeline),
	)
}

func serve(args []string, stderr io.Writer) error {
	c, err := parseServe(args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return err
	}
	sweepStrays(c.DataDir, stderr)
	if err := tagInstance(c.DataDir); err != nil {
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
	switch c.Role {
	case RoleWorker:
		fmt.Fprintf(stderr, "dragoman: worker, probes on https %s, data in %s\n", c.HTTPSAddr, c.DataDir)
	default:
		fmt.Fprintf(stderr, "dragoman: %s, serving https on %s (http %s redirects), data in %s\n", c.Role, c.HTTPSAddr, orOff(c.HTTPAddr), c.DataDir)
	}
	if c.NATSURL == "" {
		fmt.Fprintf(stderr, "dragoman: events on %s (embedded NATS JetStream; topics in the README)\n", bus.URL())
	}
	fmt.Fprintf(stderr, "dragoman: metrics %s\n", orOff(c.MetricsAddr))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	stopCtx, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	return app.Stop(stopCtx)
}

func orOff(s string) string {
	if s == "" {
		return "off"
	}
	return "on " + s
}

var _ ports.Clock = systemClock{}

// defaultMemoryLimit is the Go heap size past which the garbage collector
// works harder to give memory back (a soft limit: a job that needs more
// still gets it). Without it a large document leaves its heap resident for
// the next stage: the 50 MB text-heavy document of the README's
// Performance table peaked the server at 827–852 MB, and at 598 MB with
// this limit. GOMEMLIMIT, if set, is used instead.
const defaultMemoryLimit = 384 << 20

func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
