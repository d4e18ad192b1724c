package main

import (
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/core/pipeline"
	"github.com/dragoman-translate/dragoman/core/service"
)

// serveEnvHelp lists the variables serve reads besides the flags' own.
const serveEnvHelp = `
Environment besides the flags' variables:
  DRAGOMAN_S3_ACCESS_KEY, DRAGOMAN_S3_SECRET_KEY   keys of --blob-url
  DRAGOMAN_ROUTES   engine per language pair, e.g. "*:ar=libretranslate,en:es=apertium"
  DRAGOMAN_<ENGINE>_*   read by each engine plugin, e.g. DRAGOMAN_APERTIUM_DIR,
                    DRAGOMAN_LIBRETRANSLATE_BASE_URL, DRAGOMAN_LIBRETRANSLATE_API_KEY
                    (README, "Engines and modes")
  DRAGOMAN_APERTIUM_PROCESSES   apertium pipelines the Apertium plugin runs at
                    once (default: the number of CPUs); a large batch is split
                    across them
`

// Config is everything `serve` is told.
type Config struct {
	DataDir          string
	PluginDir        string
	HTTPSAddr        string
	HTTPAddr         string
	TLSCert, TLSKey  string
	PublicURL        string
	TrustedProxies   []netip.Prefix
	AllowPrivateURLs bool
	DownloadTTL      time.Duration
	JobRetention     time.Duration
	HoldFor          time.Duration // a held job waits this long for its confirmation
	DatabaseURL      string
	NATSURL          string
	BlobURL          string
	Engines          string
	Workers          int
	SecretKey        string
	LogLevel         string
	Role             string // all, api or worker
	NATSListen       string // the embedded NATS server's client address
	LogFormat        string // text or json
	MetricsAddr      string // Prometheus /metrics listener; empty: off
	// Request bodies (every one, API and dashboard): the longest wait for
	// the next byte, for the whole body, and the least average rate.
	UploadIdleTimeout time.Duration
	UploadTimeout     time.Duration
	BodyMinRate       int64
	// MaxConnsPerIP bounds the connections one client address holds open
	// (0: no bound); trusted proxies are not counted.
	MaxConnsPerIP int
	// RetryFor bounds how long a stage may keep failing with errors worth
	// retrying before its job fails.
	RetryFor time.Duration
	// Engine batches: the most segments in one engine call (0: the
	// engine's own limit) and the batches in flight per engine across
	// all jobs of this process.
	BatchSegments     int
	EngineConcurrency int
	// SharedMemory shares the engines' translation memory between
	// accounts; by default each account has its own.
	SharedMemory bool
}

// Roles of a serve process: all (the single process), api (HTTP only,
// no stages) and worker (stages and webhook delivery; probes only on HTTP).
const (
	RoleAll    = "all"
	RoleAPI    = "api"
	RoleWorker = "worker"
)

// runsStages says whether the process runs the pipeline's stages, the
// webhook deliveries and the sweeper.
func (c *Config) runsStages() bool { return c.Role != RoleAPI }

// servesAPI says whether the process serves the API (else only probes).
func (c *Config) servesAPI() bool { return c.Role != RoleWorker }

// serveFlags are serve's flags, each bound to its DRAGOMAN_ variable,
// read into a Config; trusted is --trusted-proxies before it is parsed.
type serveFlags struct {
	c       Config
	trusted string
}

func addServeFlags(fs *pflag.FlagSet) *serveFlags {
	f := &serveFlags{}
	c := &f.c
	fs.StringVar(&c.DataDir, "data-dir", cmdline.DefaultDataDir, "directory for the database, documents, events and the self-signed certificate")
	fs.StringVar(&c.PluginDir, "plugin-dir", cmdline.DefaultPluginDir(), "directory of plugin binaries (dragoman-provider-*, dragoman-converter-*)")
	fs.StringVar(&c.HTTPSAddr, "https-addr", ":8443", "HTTPS listen address")
	fs.StringVar(&c.HTTPAddr, "http-addr", ":8080", "HTTP listen address; every request is redirected to HTTPS with 308 (empty: off)")
	fs.StringVar(&c.TLSCert, "tls-cert", "", "TLS certificate (PEM); without it a self-signed one is generated into the data dir")
	fs.StringVar(&c.TLSKey, "tls-key", "", "TLS private key (PEM)")
	fs.StringVar(&c.PublicURL, "public-url", "", "external base URL, e.g. https://dragoman.example.com (for absolute links in webhooks); default https://localhost<https-addr>")
	fs.StringVar(&f.trusted, "trusted-proxies", "", "comma-separated CIDRs whose X-Forwarded-Proto is believed (a proxy that terminated TLS)")
	fs.BoolVar(&c.AllowPrivateURLs, "allow-private-urls", false, "let URL fetches and webhooks reach loopback/private addresses, plain http included: tests and local development only")
	fs.DurationVar(&c.DownloadTTL, "download-ttl", 10*time.Minute, "how long a translated file can be downloaded after completion")
	fs.DurationVar(&c.JobRetention, "job-retention", 24*time.Hour, "how long job records are kept after creation")
	fs.DurationVar(&c.HoldFor, "hold-for", service.DefaultHoldFor, "how long a job submitted with hold waits for POST /v1/jobs/{job_id}/confirm before it is dropped, without charge")
	fs.StringVar(&c.DatabaseURL, "database-url", "", "PostgreSQL URL (postgres://…) for the scale-out deployment; empty: SQLite in the data dir")
	fs.StringVar(&c.NATSURL, "nats-url", "", "external NATS JetStream URL for the scale-out deployment; empty: embedded in the data dir")
	fs.StringVar(&c.BlobURL, "blob-url", "", "S3-compatible document storage for the scale-out deployment, s3://bucket[/prefix]?endpoint=https://host:port&region=R&path_style=true (keys from DRAGOMAN_S3_ACCESS_KEY/DRAGOMAN_S3_SECRET_KEY or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY); empty: the data dir")
	fs.StringVar(&c.Engines, "engines", "apertium", "translation engines in priority order (plugin names)")
	fs.IntVar(&c.Workers, "workers", 2, "jobs processed concurrently per stage by this process")
	fs.IntVar(&c.BatchSegments, "batch-segments", 0, "the most segments sent to an engine in one call; 0: the engine's own limit (Apertium 10,000; smaller batches put more of one document in flight)")
	fs.IntVar(&c.EngineConcurrency, "engine-concurrency", 4, "engine calls in flight per engine across all jobs of this process")
	fs.BoolVar(&c.SharedMemory, "shared-memory", false, "share the engines' translation memory between accounts (accounts of one organisation); by default each account has its own, and even shared no job's metrics show another account's hits")
	fs.StringVar(&c.SecretKey, "secret-key", "", "hex key (32 bytes) encrypting webhook secrets at rest; default: generated into the data dir")
	fs.StringVar(&c.LogLevel, "log-level", "warn", "debug, info, warn or error")
	fs.StringVar(&c.Role, "role", RoleAll, "all: API and pipeline in one process; api: HTTP API only, runs no stages; worker: pipeline stages and webhook delivery, serves only the probes on HTTP (scale-out: every process on the same --database-url, --nats-url and --blob-url)")
	fs.StringVar(&c.NATSListen, "nats-listen", "127.0.0.1:4222", "client address of the embedded NATS server, for event subscribers (loopback unless you secure it; port 0: any free port; ignored with --nats-url)")
	fs.StringVar(&c.LogFormat, "log-format", "text", "log line format: text (logfmt) or json")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", defaultMetricsAddr, "plain-HTTP listen address of the Prometheus /metrics endpoint (empty: off)")
	fs.DurationVar(&c.UploadIdleTimeout, "upload-idle-timeout", 30*time.Second, "a request body (an upload, a form, a JSON body) that sends no byte for this long is refused with 408")
	fs.DurationVar(&c.UploadTimeout, "upload-timeout", 10*time.Minute, "the longest a request body may take (50 MB at about 700 kbit/s); 408 after it")
	fs.Int64Var(&c.BodyMinRate, "body-min-rate", 500, "bytes a second a request body must keep up on average after its first --upload-idle-timeout (each byte buys 1/rate s more); 408 below it; 0: no minimum")
	fs.IntVar(&c.MaxConnsPerIP, "max-conns-per-ip", 128, "connections one client address may hold open at once, and requests it may have in progress (more connections are closed on accept, more requests answered 429; --trusted-proxies are not counted); 0: no bound")
	fs.DurationVar(&c.RetryFor, "retry-for", pipeline.DefaultRetryFor, "how long a pipeline stage may keep failing with errors worth retrying (the database, the bucket or an engine unreachable) before its job fails; outages shorter than this cost no job")
	fs.VisitAll(func(fl *pflag.Flag) { cmdline.Bind(fs, fl.Name) })
	return f
}

// config checks the flags and returns the Config they make.
func (f *serveFlags) config() (*Config, error) {
	c := f.c
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.BatchSegments < 0 || c.EngineConcurrency < 1 {
		return nil, cmdline.UsageError{Msg: "--batch-segments must be 0 or more and --engine-concurrency 1 or more"}
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return nil, cmdline.Usagef("--log-format %q: want text or json", c.LogFormat)
	}
	switch c.Role {
	case RoleAll, RoleAPI, RoleWorker:
	default:
		return nil, cmdline.Usagef("--role: %q is not all, api or worker", c.Role)
	}
	if c.UploadIdleTimeout <= 0 || c.UploadTimeout <= 0 || c.RetryFor <= 0 {
		return nil, cmdline.UsageError{Msg: "--upload-idle-timeout, --upload-timeout and --retry-for must be positive"}
	}
	if c.BodyMinRate < 0 || c.MaxConnsPerIP < 0 {
		return nil, cmdline.UsageError{Msg: "--body-min-rate and --max-conns-per-ip must be 0 or more"}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, cmdline.UsageError{Msg: "--tls-cert and --tls-key go together"}
	}
	for _, p := range strings.Split(f.trusted, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		pre, err := netip.ParsePrefix(p)
		if err != nil {
			addr, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return nil, cmdline.Usagef("--trusted-proxies: %q is not a CIDR or address", p)
			}
			pre = netip.PrefixFrom(addr, addr.BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, pre)
	}
	if c.PublicURL == "" {
		c.PublicURL = "https://localhost" + portOf(c.HTTPSAddr)
	}
	return &c, nil
}

// parseServe reads serve's command line and environment as `dragoman
// serve` does.
func parseServe(args []string) (*Config, error) {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := addServeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, cmdline.UsageError{Msg: err.Error()}
	}
	if err := cmdline.NoArgs(nil, fs.Args()); err != nil {
		return nil, err
	}
	if err := cmdline.ApplyEnv(fs); err != nil {
		return nil, err
	}
	return f.config()
}

func portOf(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		if addr[i:] == ":443" {
			return ""
		}
		return addr[i:]
	}
	return ""
}
