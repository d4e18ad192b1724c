package main

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/pipeline"
)

// usageError is a wrong command line; it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func asUsage(err error, ue *usageError) bool { return errors.As(err, ue) }

// env returns the DRAGOMAN_ variable for a flag name: data-dir → DRAGOMAN_DATA_DIR.
func env(flagName string) string {
	return "DRAGOMAN_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// flags is a flag set whose every flag defaults to its environment variable.
type flags struct{ *flag.FlagSet }

func newFlags(name string) flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return flags{fs}
}

func (f flags) str(name, def, usage string) *string {
	if v, ok := os.LookupEnv(env(name)); ok {
		def = v
	}
	return f.String(name, def, usage+" (env "+env(name)+")")
}

func (f flags) dur(name string, def time.Duration, usage string) *time.Duration {
	if v, ok := os.LookupEnv(env(name)); ok {
		if d, err := time.ParseDuration(v); err == nil {
			def = d
		}
	}
	return f.Duration(name, def, usage+" (env "+env(name)+")")
}

func (f flags) boolean(name string, def bool, usage string) *bool {
	if v, ok := os.LookupEnv(env(name)); ok {
		if b, err := strconv.ParseBool(v); err == nil {
			def = b
		}
	}
	return f.Bool(name, def, usage+" (env "+env(name)+")")
}

func (f flags) integer(name string, def int, usage string) *int {
	if v, ok := os.LookupEnv(env(name)); ok {
		if n, err := strconv.Atoi(v); err == nil {
			def = n
		}
	}
	return f.Int(name, def, usage+" (env "+env(name)+")")
}

func (f flags) parse(args []string) error {
	if err := f.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if f.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", f.Arg(0))}
	}
	return nil
}

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

// defaultDataDir keeps state beside the working directory.
const defaultDataDir = ".dragoman"

// defaultPluginDir is bin/plugins beside the binary.
func defaultPluginDir() string {
	exe, err := os.Executable()
	if err != nil {
		return "plugins"
	}
	return filepath.Join(filepath.Dir(exe), "plugins")
}

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
	// Upload bodies (POST /v1/translate, /v1/translate-url): the longest
	// wait for the next byte, and for the whole body.
	UploadIdleTimeout time.Duration
	UploadTimeout     time.Duration
	RetryFor          time.Duration // how long a stage may keep failing with passing errors
	// Engine batches: the most segments in one engine call (0: the
	// engine's own limit) and the batches in flight per engine across
	// all jobs of this process.
	BatchSegments     int
	EngineConcurrency int
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

func parseServe(args []string) (*Config, error) {
	f := newFlags("serve")
	c := &Config{}
	dataDir := f.str("data-dir", defaultDataDir, "directory for the database, documents, events and the self-signed certificate")
	pluginDir := f.str("plugin-dir", defaultPluginDir(), "directory of plugin binaries (dragoman-provider-*, dragoman-converter-*)")
	httpsAddr := f.str("https-addr", ":8443", "HTTPS listen address")
	httpAddr := f.str("http-addr", ":8080", "HTTP listen address; every request is redirected to HTTPS with 308 (empty: off)")
	cert := f.str("tls-cert", "", "TLS certificate (PEM); without it a self-signed one is generated into the data dir")
	key := f.str("tls-key", "", "TLS private key (PEM)")
	public := f.str("public-url", "", "external base URL, e.g. https://dragoman.example.com (for absolute links in webhooks); default https://localhost<https-addr>")
	proxies := f.str("trusted-proxies", "", "comma-separated CIDRs whose X-Forwarded-Proto is believed (a proxy that terminated TLS)")
	private := f.boolean("allow-private-urls", false, "let URL fetches and webhooks reach loopback/private addresses, plain http included: tests and local development only")
	ttl := f.dur("download-ttl", 10*time.Minute, "how long a translated file can be downloaded after completion")
	retention := f.dur("job-retention", 24*time.Hour, "how long job records are kept after creation")
	db := f.str("database-url", "", "PostgreSQL URL (postgres://…) for the scale-out deployment; empty: SQLite in the data dir")
	nats := f.str("nats-url", "", "external NATS JetStream URL for the scale-out deployment; empty: embedded in the data dir")
	blobs := f.str("blob-url", "", "S3-compatible document storage for the scale-out deployment, s3://bucket[/prefix]?endpoint=https://host:port&region=R&path_style=true (keys from DRAGOMAN_S3_ACCESS_KEY/DRAGOMAN_S3_SECRET_KEY or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY); empty: the data dir")
	engines := f.str("engines", "apertium", "translation engines in priority order (plugin names)")
	workers := f.integer("workers", 2, "jobs processed concurrently per stage by this process")
	batchSegments := f.integer("batch-segments", 0, "the most segments sent to an engine in one call; 0: the engine's own limit (Apertium 10,000; smaller batches put more of one document in flight)")
	engineConcurrency := f.integer("engine-concurrency", 4, "engine calls in flight per engine across all jobs of this process")
	secret := f.str("secret-key", "", "hex key (32 bytes) encrypting webhook secrets at rest; default: generated into the data dir")
	logLevel := f.str("log-level", "warn", "debug, info, warn or error")
	role := f.str("role", RoleAll, "all: API and pipeline in one process; api: HTTP API only, runs no stages; worker: pipeline stages and webhook delivery, serves only the probes on HTTP (scale-out: every process on the same --database-url, --nats-url and --blob-url)")
	natsListen := f.str("nats-listen", "127.0.0.1:4222", "client address of the embedded NATS server, for event subscribers (loopback unless you secure it; port 0: any free port; ignored with --nats-url)")
	logFormat := f.str("log-format", "text", "log line format: text (logfmt) or json")
	metricsAddr := f.str("metrics-addr", defaultMetricsAddr, "plain-HTTP listen address of the Prometheus /metrics endpoint (empty: off)")
	f.Usage = func() {
		fmt.Fprintln(f.Output(), "Usage: dragoman serve [flags]")
		f.PrintDefaults()
		fmt.Fprint(f.Output(), serveEnvHelp)
	}
	uploadIdle := f.dur("upload-idle-timeout", 30*time.Second, "an upload that sends no byte for this long is refused with 408")
	uploadWhole := f.dur("upload-timeout", 10*time.Minute, "the longest an upload body may take (50 MB at about 700 kbit/s); 408 after it")
	retryFor := f.dur("retry-for", pipeline.DefaultRetryFor, "how long a pipeline stage may keep failing with errors worth retrying (the database, the bucket or an engine unreachable) before its job fails; outages shorter than this cost no job")
	if err := f.parse(args); err != nil {
		return nil, err
	}
	c.DataDir, c.PluginDir, c.HTTPSAddr, c.HTTPAddr = *dataDir, *pluginDir, *httpsAddr, *httpAddr
	c.TLSCert, c.TLSKey, c.PublicURL = *cert, *key, strings.TrimRight(*public, "/")
	c.AllowPrivateURLs, c.DownloadTTL, c.JobRetention = *private, *ttl, *retention
	c.DatabaseURL, c.NATSURL, c.Engines, c.Workers = *db, *nats, *engines, *workers
	c.BlobURL = *blobs
	c.BatchSegments, c.EngineConcurrency = *batchSegments, *engineConcurrency
	if c.BatchSegments < 0 || c.EngineConcurrency < 1 {
		return nil, usageError{"--batch-segments must be 0 or more and --engine-concurrency 1 or more"}
	}
	c.SecretKey, c.LogLevel = *secret, *logLevel
	c.LogFormat, c.MetricsAddr = *logFormat, *metricsAddr
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return nil, usageError{fmt.Sprintf("--log-format %q: want text or json", c.LogFormat)}
	}
	c.Role, c.NATSListen = *role, *natsListen
	switch c.Role {
	case RoleAll, RoleAPI, RoleWorker:
	default:
		return nil, usageError{fmt.Sprintf("--role: %q is not all, api or worker", c.Role)}
	}
	c.UploadIdleTimeout, c.UploadTimeout, c.RetryFor = *uploadIdle, *uploadWhole, *retryFor
	if c.UploadIdleTimeout <= 0 || c.UploadTimeout <= 0 || c.RetryFor <= 0 {
		return nil, usageError{"--upload-idle-timeout, --upload-timeout and --retry-for must be positive"}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, usageError{"--tls-cert and --tls-key go together"}
	}
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		pre, err := netip.ParsePrefix(p)
		if err != nil {
			addr, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return nil, usageError{fmt.Sprintf("--trusted-proxies: %q is not a CIDR or address", p)}
			}
			pre = netip.PrefixFrom(addr, addr.BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, pre)
	}
	if c.PublicURL == "" {
		c.PublicURL = "https://localhost" + portOf(c.HTTPSAddr)
	}
	return c, nil
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
