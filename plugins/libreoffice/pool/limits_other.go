//go:build !linux

package pool

import (
	"os/exec"
	"time"
)

// Processor time and memory are capped on Linux only; elsewhere the
// watch still stops a conversion over its processor budget where /proc
// can be read.

func limitCPU(int, time.Duration) {}

type memoryLimit struct {
	bytes int64
	mode  string
}

func newMemoryLimit(bytes int64) *memoryLimit {
	return &memoryLimit{bytes: bytes, mode: "none: LibreOffice's memory is capped on Linux only"}
}

type memoryCgroup struct{}

func (m *memoryLimit) prepare(*exec.Cmd) (*memoryCgroup, error) { return nil, nil }
func (m *memoryLimit) started(int, *memoryCgroup)               {}
func (cg *memoryCgroup) oomKilled() bool                        { return false }
func (cg *memoryCgroup) remove()                                {}
