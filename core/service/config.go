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
}

// DefaultConfig is the contract's limits.
var DefaultConfig = Config{MaxUpload: 50 << 20, DownloadTTL: 10 * time.Minute, JobRetention: 24 * time.Hour}
