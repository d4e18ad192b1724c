package main

// The service graph: the fx providers of the store, the bus, the document
// store, the plugins, the service and the pipeline that `serve` and
// `translate --local` run.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.uber.org/fx"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/docx/bilingual"
	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/langdetect"
	"github.com/dragoman-translate/dragoman/adapters/pdftext"
	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/adapters/preview"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
	"github.com/dragoman-translate/dragoman/adapters/webhook"
	"github.com/dragoman-translate/dragoman/app/internal/datadir"
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

// openStore opens the store of the data dir (or PostgreSQL) with the
// key that encrypts webhook secrets.
func openStore(lc fx.Lifecycle, c *Config) (*sqlstore.Store, error) {
	s, err := datadir.OpenStore(c.DataDir, c.DatabaseURL)
	if err != nil {
		return nil, err
	}
	key, err := datadir.SecretKey(c.DataDir, c.SecretKey)
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

// abandonedEvents forwards events the bus stopped retrying to the pipeline, which is
// built after the bus.
type abandonedEvents struct {
	p atomic.Pointer[pipeline.Pipeline]
}

func (g *abandonedEvents) forward(ctx context.Context, handler string, topic ports.Topic, e ports.JobEvent, err error) error {
	if p := g.p.Load(); p != nil {
		return p.GiveUp(ctx, e.JobID, err)
	}
	return errors.New("the pipeline is not running yet")
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
		err = portTaken(err, "embedded NATS", "nats-listen", c.NATSListen)
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
	spool := filepath.Join(c.DataDir, "spool")
	if err := os.MkdirAll(spool, 0o700); err != nil {
		return nil, err
	}
	p := &pipeline.Pipeline{
		Jobs: st, Accounts: st, Quota: st, Blobs: blobs, Bus: bus,
		Docs: docx.New(layout), Detector: detector, SpoolDir: spool, PDFText: pdftext.Reader{},
		Translator: &translate.Translator{
			Engines: plugins, TM: st, Routes: routes, SharedMemory: c.SharedMemory, Throughput: st,
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
	p.Bilingual = bilingual.Composer{Layout: layout, Dir: spool}
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
			newUseCases,
			newWebhookWorker,
			newPipeline,
			func(uc service.UseCases, log *slog.Logger) *httpapi.API { return httpapi.New(uc, log) },
			newDashboard,
		),
		fx.Invoke(runPipeline),
	)
}

var _ ports.Clock = systemClock{}
