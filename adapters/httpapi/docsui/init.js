// Starts Swagger UI on the contract. A file of its own, not an inline
// script, so that the page's Content-Security-Policy allows only this
// origin's scripts. Paths are relative to /v1/docs; validatorUrl null
// keeps Swagger UI from calling its public validator.
window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#ui", validatorUrl: null, deepLinking: true });
