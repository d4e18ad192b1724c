package eventbus

import (
	"os"
	"testing"
)

var sharedDirs []string

// osMkdirTemp makes a directory for state shared across tests of the
// package; TestMain removes it.
func osMkdirTemp() (string, error) {
	dir, err := os.MkdirTemp("", "eventbus-test-")
	if err == nil {
		sharedDirs = append(sharedDirs, dir)
	}
	return dir, err
}

func TestMain(m *testing.M) {
	if role := os.Getenv(crashRoleEnv); role != "" {
		os.Exit(crashHelper(role))
	}
	code := m.Run()
	if suiteSrv != nil {
		suiteSrv.Shutdown()
		suiteSrv.WaitForShutdown()
	}
	for _, d := range sharedDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
