package telemetry

import (
	"runtime"
	"runtime/debug"
)

// Version and Commit name the build. `make build` sets them with
// -ldflags "-X github.com/dragoman-translate/dragoman/adapters/telemetry.Version=…"
// (git describe) and …Commit=… (the revision); a binary built otherwise
// falls back on what the Go toolchain recorded (a module version for
// `go install …@v1.2.3`, the VCS revision when stamped) and then "devel".
var (
	Version string
	Commit  string
)

// BuildInfo is what dragoman_build_info and the trace resource say about
// the running binary.
type BuildInfo struct {
	Version   string // the build's version (not the API contract's)
	Commit    string // VCS revision, "unknown" when not recorded
	GoVersion string
}

// Build describes the running binary.
func Build() BuildInfo {
	b := BuildInfo{Version: Version, Commit: Commit, GoVersion: runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && b.Commit == "" {
				b.Commit = s.Value
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}
