// Package service holds the use cases the API and the dashboard offer
// clients, and the operator's (Admin: accounts, keys and users), as narrow
// handlers by concern, each holding only the ports it uses:
//
//	Accounts       API keys, request limits, usage and quota, the account's keys
//	Sessions       dashboard sign-in, sessions and password changes
//	Jobs           submitting (upload or URL), reading, listing, cancelling
//	               and downloading jobs, and sweeping expired files
//	Documents      a completed job's documents and revisions: PDF rendition,
//	               previews, XLIFF export and the post-edited revision
//	AccountMemory  the account's own translation memory (its post-edits and
//	               TMX imports), as TMX; not the engines' translation memory,
//	               which the translator keeps (core/translate)
//	Glossaries     glossaries and the do-not-translate terms
//	Webhooks       the account's webhooks and their deliveries
//	Languages      the languages and pairs the engines serve
//
// One use case per file, named <concern>_<use case>.go; <concern>.go holds
// the handler and what its use cases share. UseCases bundles the handlers
// for the adapters that serve them. Errors are typed (Error, Kind) so that
// each adapter maps them to its own protocol.
package service
