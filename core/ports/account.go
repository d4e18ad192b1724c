package ports

import "context"

type accountKey struct{}

// WithAccount marks ctx as working for an account, so the adapters that
// share scarce resources between accounts (the converters' instances)
// can share them fairly. The pipeline's stages and the preview and PDF
// use cases set it.
func WithAccount(ctx context.Context, accountID string) context.Context {
	return context.WithValue(ctx, accountKey{}, accountID)
}

// AccountOf is the account ctx works for, "" if none was set.
func AccountOf(ctx context.Context) string {
	id, _ := ctx.Value(accountKey{}).(string)
	return id
}
