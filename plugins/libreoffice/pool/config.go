// Package pool keeps warm LibreOffice instances and converts documents to
// .docx with them. Each instance is a listening soffice with its own
// throw-away profile, driven over UNO by a small python3-uno helper; it
// does one conversion at a time. A cold `soffice --convert-to` costs about
// a second per file, a warm instance a fraction of that.
package pool

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvSize    = "DRAGOMAN_LIBREOFFICE_POOL_SIZE"
	EnvTimeout = "DRAGOMAN_LIBREOFFICE_TIMEOUT"
	EnvSoffice = "DRAGOMAN_LIBREOFFICE_SOFFICE"
	EnvPython  = "DRAGOMAN_LIBREOFFICE_PYTHON"
	EnvIdle    = "DRAGOMAN_LIBREOFFICE_IDLE"
	// EnvPerAccount is how many instances one account may hold at once.
	EnvPerAccount = "DRAGOMAN_LIBREOFFICE_PER_ACCOUNT"
	// EnvCPU is the processor time one conversion may take (for 2 MB).
	EnvCPU = "DRAGOMAN_LIBREOFFICE_CPU"
	// EnvMemory caps an instance's memory, e.g. 1536M or 2G; 0: no cap.
	EnvMemory = "DRAGOMAN_LIBREOFFICE_MEMORY"
	// EnvInstance is the tag the server gives the processes it starts,
	// "pid:start-time:data-dir"; its data dir names the server instance
	// (see workdir.go).
	EnvInstance = "DRAGOMAN_INSTANCE"
)

// timeoutUnit is the amount of document the base timeout is for, and
// timeoutFactor the most a document's timeout is multiplied by (see
// Config.TimeoutFor).
const (
	timeoutUnit   = 2 << 20
	timeoutFactor = 30
)

// Config sizes and locates the pool. Zero values take the defaults.
type Config struct {
	Size int // instances at most, started on demand; default runtime.NumCPU(), at least 2
	// PerTenant is how many instances one tenant (account) may hold at
	// once, so no account holds every instance while others wait;
	// default Size-1, at least 1. Waiting tenants take turns.
	PerTenant int
	// CPU is the processor time one conversion may use, scaled with the
	// document's size as Timeout is (see CPUFor); default 60s. A warm
	// instance is measured per conversion and replaced when one goes over.
	CPU time.Duration
	// Memory caps an instance's memory (its data segment, or its cgroup's
	// memory where a writable cgroup v2 is delegated); default 1 GiB,
	// negative: no cap. A conversion that needs more fails and says so.
	Memory int64
	// Instance names the server instance (its data dir), so servers
	// sharing a temp dir sweep only their own plugins' files.
	Instance string
	// Timeout is the base and minimum time a conversion may take; default
	// 120s. Large documents get more: see TimeoutFor. Waiting for an
	// instance may take StartTimeout longer.
	Timeout time.Duration
	// IdleTimeout stops an instance that has converted nothing for that
	// long; default 5m, negative: never.
	IdleTimeout time.Duration
	// RecycleAbove stops an instance after it has converted a document
	// larger than this (as TimeoutFor counts size), so it gives back the
	// memory the document took; default 4 MB, negative: never.
	RecycleAbove int64
	StartTimeout time.Duration // for one instance to come up; default 60s
	Soffice      string        // soffice executable; default "soffice" on PATH
	Python       string        // a python3 that can import uno; default /usr/bin/python3
	TempDir      string        // parent of instance directories; default os.TempDir()
	// NoColdRetry turns off the one cold `soffice --convert-to` retry made
	// when a warm instance crashes on a document.
	NoColdRetry bool
	// NoNetNamespace runs soffice in the plugin's network namespace even
	// where it could have its own; for tests of the profile's settings.
	NoNetNamespace bool
	// NoLandlock runs soffice without the Landlock domain it gets where
	// the kernel has Landlock (landlock_linux.go); for tests.
	NoLandlock bool

	officeBin string // soffice.bin behind Soffice
}

// ConfigFromEnv reads the DRAGOMAN_LIBREOFFICE_* variables.
func ConfigFromEnv() (Config, error) {
	var c Config
	if v := os.Getenv(EnvSize); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("%s=%q: want a positive integer", EnvSize, v)
		}
		c.Size = n
	}
	if v := os.Getenv(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("%s=%q: want a positive duration such as 120s", EnvTimeout, v)
		}
		c.Timeout = d
	}
	if v := os.Getenv(EnvIdle); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return c, fmt.Errorf("%s=%q: want a duration such as 5m (0: never stop idle instances)", EnvIdle, v)
		}
		c.IdleTimeout = d
		if d == 0 {
			c.IdleTimeout = -1
		}
	}
	if v := os.Getenv(EnvPerAccount); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("%s=%q: want a positive integer (the pool size lets one account use every instance)", EnvPerAccount, v)
		}
		c.PerTenant = n
	}
	if v := os.Getenv(EnvCPU); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("%s=%q: want a positive duration such as 60s", EnvCPU, v)
		}
		c.CPU = d
	}
	if v := os.Getenv(EnvMemory); v != "" {
		n, err := parseBytes(v)
		if err != nil {
			return c, fmt.Errorf("%s=%q: want a size such as 1536M or 2G (0: no cap)", EnvMemory, v)
		}
		c.Memory = n
		if n == 0 {
			c.Memory = -1
		}
	}
	// The server's data dir, which a restart keeps, not its pid.
	tag := os.Getenv(EnvInstance)
	if parts := strings.SplitN(tag, ":", 3); len(parts) == 3 {
		tag = parts[2]
	}
	c.Instance = tag
	c.Soffice = os.Getenv(EnvSoffice)
	c.Python = os.Getenv(EnvPython)
	return c, nil
}

func (c Config) withDefaults() (Config, error) {
	if c.Size <= 0 {
		c.Size = max(runtime.NumCPU(), 2)
	}
	if c.PerTenant <= 0 {
		c.PerTenant = max(c.Size-1, 1)
	}
	if c.CPU <= 0 {
		c.CPU = 60 * time.Second
	}
	if c.Memory == 0 {
		c.Memory = 1 << 30
	}
	if c.Timeout <= 0 {
		c.Timeout = 120 * time.Second
	}
	if c.RecycleAbove == 0 {
		c.RecycleAbove = 4 << 20
	} else if c.RecycleAbove < 0 {
		c.RecycleAbove = 1<<63 - 1
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 5 * time.Minute
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 60 * time.Second
	}
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
	if c.Soffice == "" {
		c.Soffice = "soffice"
	}
	p, err := exec.LookPath(c.Soffice)
	if err != nil {
		return c, fmt.Errorf("LibreOffice not found (%v): install libreoffice-writer or set %s", err, EnvSoffice)
	}
	c.Soffice = p
	if c.officeBin, err = officeBinary(p); err != nil {
		return c, fmt.Errorf("LibreOffice's soffice.bin not found (%v): set %s to the soffice of a full installation", err, EnvSoffice)
	}
	if c.Python == "" {
		// Debian's python3-uno lives in the system python, not in a pyenv or venv one.
		c.Python = "/usr/bin/python3"
		if _, err := os.Stat(c.Python); err != nil {
			c.Python = "python3"
		}
	}
	if p, err = exec.LookPath(c.Python); err != nil {
		return c, fmt.Errorf("python3 not found (%v): install python3-uno or set %s", err, EnvPython)
	}
	c.Python = p
	return c, nil
}

// TimeoutFor is the time a conversion of a document of size bytes may
// take: Timeout times the square of the number of started 2 MB units, at
// most 30 times Timeout, so the product's timeout stays the minimum and
// scales as the machine's speed does. LibreOffice's time grows faster than
// the document: on a loaded 2-core machine a generated 1 MB RTF took 11 s
// and a 10 MB one 775 s (5 units: 25 × 120 s = 3000 s at the default);
// odftoolkit-Text1.odt (8 MB of content.xml) took over 120 s. For a zip
// package size is the unpacked size of its XML (see workSize).
func (c Config) TimeoutFor(size int64) time.Duration {
	t := c.Timeout
	if t <= 0 {
		t = 120 * time.Second
	}
	return t * sizeFactor(size)
}

// sizeFactor is the square of the number of started 2 MB units in size,
// between 1 and 30.
func sizeFactor(size int64) time.Duration {
	units := min((size+timeoutUnit-1)/timeoutUnit, timeoutFactor)
	return time.Duration(max(min(units*units, timeoutFactor), 1))
}

// CPUFor is the processor time a conversion of a document of size bytes
// may use: CPU scaled as TimeoutFor scales Timeout. Where the wall-clock
// timeout bounds a hang, this bounds the work, whatever the machine's
// load: a small document that makes LibreOffice compute for minutes
// (deeply nested or huge tables) is stopped at CPU, not after the timeout.
func (c Config) CPUFor(size int64) time.Duration {
	base := c.CPU
	if base <= 0 {
		base = 60 * time.Second
	}
	return base * sizeFactor(size)
}

// parseBytes reads a size: a number of bytes, or one with a K, M or G
// suffix (powers of 1024; a trailing B or iB is allowed).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	switch {
	case strings.HasSuffix(t, "K"):
		mult = 1 << 10
	case strings.HasSuffix(t, "M"):
		mult = 1 << 20
	case strings.HasSuffix(t, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		t = t[:len(t)-1]
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n * mult, nil
}

// sandbox is the directory soffice may write under when it runs under
// Landlock, or "" when it does not.
func (c Config) sandbox(work string) string {
	if c.NoLandlock {
		return ""
	}
	return work
}
