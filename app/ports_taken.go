package main

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/dragoman-translate/dragoman/app/cmdline"
)

// portTaken explains a listen error on a port another program holds: which
// flag or variable picks another one.
func portTaken(err error, what, flagName, addr string) error {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	hint := fmt.Sprintf("pick another with --%s or %s, e.g. --%s :%s", flagName, cmdline.Env(flagName), flagName, map[string]string{"https-addr": "9443", "http-addr": "9080"}[flagName])
	if flagName == "http-addr" {
		hint += ", or turn the redirecting HTTP listener off with --http-addr \"\""
	}
	return fmt.Errorf("the %s port %s is taken by another program: %s (%w)", what, addr, hint, err)
}
