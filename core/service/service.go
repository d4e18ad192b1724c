package service

import (
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// Config holds the limits of the service.
type Config struct {
	MaxUpload    int64         // bytes; 50 MB
	DownloadTTL  time.Duration // output downloadable this long after completion
	JobRetention time.Duration // job records kept this long after creation
	// AllowPrivateURLs lets URL fetches and webhooks reach loopback and
	// private addresses over plain http, for tests and local development.
	AllowPrivateURLs bool
}

// DefaultConfig is the contract's limits.
var DefaultConfig = Config{MaxUpload: 50 << 20, DownloadTTL: 10 * time.Minute, JobRetention: 24 * time.Hour}

// Service implements the client use cases over the ports.
type Service struct {
	Config   Config
	Jobs     ports.JobStore
	Accounts ports.AccountStore
	Quota    quota.Store
	Webhooks webhook.Store
	Blobs    ports.BlobStore
	Bus      ports.EventBus
	Limiter  ports.RateLimiter
	Engines  ports.EngineRegistry
	Layout   ports.RTLLayout // nil: no RTL estimate
	// Packages reads every part of a submitted .docx the pipeline will
	// parse, so a bad part is refused at upload (nil: no deep check).
	Packages ports.PackageChecker
	// Docs and Detector detect a source_lang=auto document's language at
	// submission; either nil: the pipeline alone detects it.
	Docs     ports.DocumentEngine
	Detector ports.LanguageDetector
	Fetcher  ports.URLFetcher // nil: translate-url unavailable
	Clock    ports.Clock
	NewID    func() string
	// JobCatalog lists and deletes an account's jobs (the API's job list
	// and the dashboard's); nil: 503 there.
	JobCatalog ports.JobCatalog
	// Dashboard: people, sessions and named keys; nil where the dashboard
	// is not served.
	Users      ports.UserStore
	KeyCatalog ports.KeyCatalog
	Pages      ports.PageRenderer // nil: no previews
	History    ports.UsageHistory // nil: no words-per-day chart
	// PDF renders the PDF of a translation downloaded as PDF when the
	// pipeline made none (the job did not ask for one); nil: such downloads are 404.
	PDF ports.PDFRenderer
	// Glossaries keeps the accounts' glossaries; nil: 503 on their endpoints.
	Glossaries ports.GlossaryStore
	// Post-editing and memories: XLIFF export/import of a job's segments,
	// the accounts' own translations and their TMX form; nil: unavailable.
	XLIFF  ports.XLIFF
	Memory ports.AccountMemory
	TMX    ports.TMX
}
