package main

import (
	"context"
	"errors"
	"io"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

// local runs translations in this process (step 4).
type local struct{}

func newLocal(ctx context.Context, pluginDir, engines string, stderr io.Writer) (*local, error) {
	return nil, errors.New("not yet")
}
func (l *local) Close() error { return nil }
func (l *local) TranslateFile(ctx context.Context, path string, opts client.Options) (*client.Result, error) {
	return nil, errors.New("not yet")
}
func (l *local) TranslateURL(ctx context.Context, url string, opts client.Options) (*client.Result, error) {
	return nil, errors.New("not yet")
}
