// Package e2e holds the end-to-end tests and benchmarks of the dragoman
// binary: each starts `dragoman serve` (or the client commands) as a
// process, from DRAGOMAN_BIN (make test sets it to bin/) or from binaries
// built once into a temporary folder, and drives it as its users do: over
// HTTPS, through the command line, the Go SDK, a browser, webhooks and the
// event bus. It has no code besides its tests.
package e2e
