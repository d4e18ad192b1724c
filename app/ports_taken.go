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
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) {
		return err
	}
	hint := fmt.Sprintf("pick another with --%s or %s, e.g. --%s %s", flagName, cmdline.Env(flagName), flagName, otherPort[flagName])
	switch flagName {
	case "http-addr":
		hint += ", or turn the redirecting HTTP listener off with --http-addr \"\""
	case "metrics-addr":
		hint += ", or turn metrics off with --metrics-addr \"\""
	case "nats-listen":
		hint += " (port 0: any free port, printed at start)"
	}
	return fmt.Errorf("the %s port %s is taken by another program: %s (%w)", what, addr, hint, err)
}

// otherPort is an example of another address for each listener's flag.
var otherPort = map[string]string{"https-addr": ":9443", "http-addr": ":9080", "metrics-addr": "127.0.0.1:9465", "nats-listen": "127.0.0.1:4223"}
