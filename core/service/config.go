package service

import "time"

// Config holds the limits of the service.
type Config struct {
	MaxUpload    int64         // bytes; 50 MB
	DownloadTTL  time.Duration // output downloadable this long after completion
	JobRetention time.Duration // job records kept this long after creation
	// AllowPrivateURLs lets URL fetches and webhooks reach loopback and
	// private addresses over plain http, for tests and local development.
	AllowPrivateURLs bool
	// HoldFor is how long a job submitted with hold waits for its
	// confirmation before it is dropped; 0 means DefaultHoldFor.
	HoldFor time.Duration
}

// DefaultHoldFor is how long a held job waits for its confirmation.
const DefaultHoldFor = time.Hour

func (c Config) holdFor() time.Duration {
	if c.HoldFor <= 0 {
		return DefaultHoldFor
	}
	return c.HoldFor
}

// DefaultConfig is the contract's limits.
var DefaultConfig = Config{MaxUpload: 50 << 20, DownloadTTL: 10 * time.Minute, JobRetention: 24 * time.Hour}
