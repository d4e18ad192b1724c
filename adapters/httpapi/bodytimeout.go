package httpapi

import "github.com/danielgtaylor/huma/v2"

// bodyTimeoutResponses declares the 408 every operation with a request
// body may answer: app's httpguard.Bodies cuts off a body that comes too
// slowly, whatever the operation (see the description's "Request bodies").
// The answer is the API's problem body, as its 422 is.
func bodyTimeoutResponses(o *huma.OpenAPI) {
	for _, item := range o.Paths {
		for _, op := range []*huma.Operation{item.Post, item.Put, item.Patch} {
			if op == nil || op.RequestBody == nil || op.Responses["408"] != nil || op.Responses["422"] == nil {
				continue
			}
			op.Responses["408"] = &huma.Response{
				Description: "The request body came too slowly: it stalled, fell under the minimum rate or took longer than the limit",
				Content:     op.Responses["422"].Content,
			}
		}
	}
}
