package httpengine

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Settings reads one engine's DRAGOMAN_<ENGINE>_<KEY> environment.
type Settings struct{ Engine string }

// Name is the variable of key, e.g. DRAGOMAN_DEEPL_API_KEY.
func (s Settings) Name(key string) string {
	return "DRAGOMAN_" + strings.ToUpper(s.Engine) + "_" + key
}

// String is the value of key, or def when unset.
func (s Settings) String(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(s.Name(key))); v != "" {
		return v
	}
	return def
}

// Required is the value of key, or an error naming the variable.
func (s Settings) Required(key, what string) (string, error) {
	v := s.String(key, "")
	if v == "" {
		return "", fmt.Errorf("%s engine: %s is not set (%s)", s.Engine, s.Name(key), what)
	}
	return v, nil
}

// Int is key as an integer, or def.
func (s Settings) Int(key string, def int) (int, error) {
	v := s.String(key, "")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s engine: %s=%q is not a whole number", s.Engine, s.Name(key), v)
	}
	return n, nil
}

// Duration is key as a Go duration ("500ms", "2s"), or def.
func (s Settings) Duration(key string, def time.Duration) (time.Duration, error) {
	v := s.String(key, "")
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s engine: %s=%q is not a duration like 500ms or 2s", s.Engine, s.Name(key), v)
	}
	return d, nil
}

// Client reads the retry settings every engine has:
//
//	DRAGOMAN_<ENGINE>_MAX_RETRIES     retries after the first attempt (default 4)
//	DRAGOMAN_<ENGINE>_BACKOFF         first retry delay without Retry-After; doubles (default 1s)
//	DRAGOMAN_<ENGINE>_TIMEOUT         per request (default 60s)
//	DRAGOMAN_<ENGINE>_MAX_RETRY_AFTER longest Retry-After waited for (default 2m)
func (s Settings) Client() (*Client, error) {
	c := &Client{Engine: s.Engine}
	var err error
	if c.MaxRetries, err = s.Int("MAX_RETRIES", 4); err != nil {
		return nil, err
	}
	if c.Backoff, err = s.Duration("BACKOFF", time.Second); err != nil {
		return nil, err
	}
	if c.Timeout, err = s.Duration("TIMEOUT", 60*time.Second); err != nil {
		return nil, err
	}
	if c.MaxRetryAfter, err = s.Duration("MAX_RETRY_AFTER", 2*time.Minute); err != nil {
		return nil, err
	}
	return c, nil
}
