package service

// UseCases are the client use cases by concern, as the adapters that serve
// them (the HTTP API, the dashboard, the local command line) take them.
// It holds handlers, not ports: each handler has only the ports its use
// cases need. A nil handler's use cases are not served.
type UseCases struct {
	Accounts      *Accounts
	Sessions      *Sessions
	Jobs          *Jobs
	Documents     *Documents
	AccountMemory *AccountMemory
	Glossaries    *Glossaries
	Webhooks      *Webhooks
	Languages     *Languages
}
