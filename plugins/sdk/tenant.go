package sdk

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// TenantHeader is the gRPC metadata key that names the tenant a call
// works for: an opaque key of the account (never its id), so a plugin
// that shares scarce resources (the LibreOffice pool) can share them
// fairly between accounts. Hosts and plugins that predate it send and
// read nothing, which is one tenant; the protocol is unchanged.
const TenantHeader = "dragoman-tenant"

// WithTenant is the host's side: calls made with the returned context tell
// the plugin which tenant they work for. An empty key adds nothing.
func WithTenant(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, TenantHeader, key)
}

// Tenant is the plugin's side: the tenant key the host sent with the call
// whose context this is, or "" when it sent none.
func Tenant(ctx context.Context) string {
	if v := metadata.ValueFromIncomingContext(ctx, TenantHeader); len(v) > 0 {
		return v[0]
	}
	return ""
}
