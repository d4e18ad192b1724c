# Dragoman: `make run` sets up and starts the service on the embedded
# default (SQLite, local documents, embedded NATS); `make test` runs every test.

GO        ?= go
BIN       := bin
PLUGINS   := $(BIN)/plugins
DATA_DIR  ?= .dragoman
# Debian packages the service and its tests need: Apertium with every pair
# package Debian ships (APERTIUM_PAIRS), LibreOffice for .doc/.odt/.rtf and render checks,
# fonts that cover Arabic, Hebrew, Persian and Urdu, PostgreSQL for the
# scale-out store tests, Python and Node for the webhook verification examples,
# Chromium for the dashboard's browser tests, translate-toolkit to check the
# XLIFF and TMX files against a reader nobody here wrote, lxml for the brief's RTL
# checker (testdata/rtl/checker) that app/corpusrender runs, prometheus for
# promtool, which checks the live /metrics, and bash-completion, zsh and fish,
# whose own completion machinery runs `dragoman completion`'s scripts in
# app/e2e. LibreOffice is
# the full Writer, not the -nogui variant: that one ships no Writer .ui files,
# and the warm converter's headless view aborts on documents whose view
# builds one (comments: annotation.ui). No X server or toolkit comes with it.
# Every Apertium pair package Debian 12 ships (`apt-cache search apertium`,
# without the transitional dummies, which only pull these): 46 packages, 36
# languages. Measured: 110 MB to download and 376 MB installed, 14 s to add
# the 42 beyond the old four on a machine with a local mirror (README).
APERTIUM_PAIRS := apertium-afr-nld apertium-arg-cat apertium-bel-rus apertium-br-fr \
	apertium-cat-ita apertium-cat-srd apertium-dan-nor apertium-en-gl apertium-eng-cat \
	apertium-eng-spa apertium-eo-ca apertium-eo-en apertium-eo-es apertium-eo-fr \
	apertium-es-gl apertium-es-pt apertium-es-ro apertium-eu-en apertium-eu-es \
	apertium-fr-es apertium-fra-cat apertium-fra-frp apertium-hbs-eng apertium-hbs-mkd \
	apertium-hbs-slv apertium-ind-zlm apertium-isl-eng apertium-isl-swe apertium-mkd-bul \
	apertium-mkd-eng apertium-nno-nob apertium-oc-ca apertium-oc-es apertium-oci-fra \
	apertium-pol-szl apertium-por-cat apertium-pt-gl apertium-rus-ukr apertium-spa-arg \
	apertium-spa-ast apertium-spa-cat apertium-spa-ita apertium-srd-ita apertium-swe-dan \
	apertium-swe-nor apertium-urd-hin
APT_PACKAGES := apertium $(APERTIUM_PAIRS) \
	libreoffice-writer libreoffice-math python3-uno poppler-utils fontconfig \
	fonts-noto-core fonts-dejavu culmus fonts-hosny-amiri fonts-sil-scheherazade fonts-liberation2 \
	postgresql python3 chromium python3-translate python3-lxml prometheus bash-completion zsh fish
# npm packages the tests run (installed globally; tests find them through
# NODE_PATH=$(npm root -g)): the xliff parser reads the XLIFF 2.1 export;
# Redocly's and Spectral's linters check the OpenAPI contract; axe-core checks
# every dashboard page's accessibility in Chromium.
NPM_PACKAGES := xliff@6.4.0 @redocly/cli@2.77.0 @stoplight/spectral-cli@6.16.3 axe-core@4.14.1
# Plugin binaries as <file name>:<package dir under plugins/>. The host finds
# them by name: dragoman-provider-<engine>, dragoman-converter-<name>.
PLUGIN_LIST := dragoman-provider-apertium:apertium dragoman-provider-pseudo:pseudo \
	dragoman-provider-openai:openai dragoman-provider-deepl:deepl dragoman-provider-google:google \
	dragoman-provider-azure:azure dragoman-provider-libretranslate:libretranslate \
	dragoman-provider-example:example dragoman-converter-libreoffice:libreoffice

.PHONY: all deps tools build plugins run test bench bench-all proto openapi fmt clean

all: build

## deps: install the Debian packages that are missing (needs root or sudo)
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done; \
		command -v node >/dev/null 2>&1 || echo nodejs; command -v npm >/dev/null 2>&1 || echo npm); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@for p in $(NPM_PACKAGES); do \
		[ -d "$$(npm root -g)/$${p%@*}" ] && continue; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		echo "npm install -g $$p"; $$SUDO npm install -g --no-fund --no-audit $$p || exit 1; \
	done

## tools: the S3 (versitygw) and NATS servers the scale-out tests run
tools:
	@command -v versitygw >/dev/null 2>&1 || [ -x "$$($(GO) env GOPATH)/bin/versitygw" ] || $(GO) install github.com/versity/versitygw/cmd/versitygw@v1.8.0
	@command -v nats-server >/dev/null 2>&1 || [ -x "$$($(GO) env GOPATH)/bin/nats-server" ] || $(GO) install github.com/nats-io/nats-server/v2@v2.15.2

## build: the service binary and every plugin. The binary carries its
## version (git describe) and commit: dragoman_build_info, the traces'
## service.version.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X github.com/dragoman-translate/dragoman/adapters/telemetry.Version=$(VERSION) \
	-X github.com/dragoman-translate/dragoman/adapters/telemetry.Commit=$(COMMIT)
build: plugins
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/dragoman ./app

plugins:
	@mkdir -p $(PLUGINS)
	@for p in $(PLUGIN_LIST); do \
		name=$${p%%:*}; dir=plugins/$${p#*:}; \
		[ -f $$dir/main.go ] || continue; \
		echo "$(GO) build -o $(PLUGINS)/$$name ./$$dir"; \
		$(GO) build -o $(PLUGINS)/$$name ./$$dir || exit 1; \
	done

## run: install what is missing, build, create a dev account and serve
run: deps build
	@mkdir -p $(DATA_DIR)
	@export DRAGOMAN_DATA_DIR=$(DATA_DIR); \
	acct=$$(cat $(DATA_DIR)/dev-account 2>/dev/null); \
	if [ -z "$$acct" ]; then \
		acct=$$($(BIN)/dragoman admin account create --plan pro --name dev | sed -n 's/.*"account_id":"\([^"]*\)".*/\1/p'); \
		echo "$$acct" > $(DATA_DIR)/dev-account; \
	fi; \
	key=$$($(BIN)/dragoman admin key create --account $$acct | sed -n 's/.*"api_key":"\([^"]*\)".*/\1/p'); \
	if [ ! -s $(DATA_DIR)/dev-password ]; then \
		(umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' > $(DATA_DIR)/dev-password); \
		$(BIN)/dragoman admin user create --account $$acct --email dev@localhost --password-file $(DATA_DIR)/dev-password >/dev/null; \
	fi; \
	echo; echo "Dev account $$acct (pro plan). A new API key for it:"; echo; echo "  export DRAGOMAN_KEY=$$key"; echo; \
	echo "Try:"; \
	echo "  curl -k -H \"X-API-Key: \$$DRAGOMAN_KEY\" -F file=@testdata/e2e/english.docx -F target_lang=Spanish https://localhost:8443/v1/translate"; \
	echo "  curl -k -H \"X-API-Key: \$$DRAGOMAN_KEY\" https://localhost:8443/v1/jobs/<job_id>"; \
	echo "  curl -k -H \"X-API-Key: \$$DRAGOMAN_KEY\" -OJ https://localhost:8443/v1/jobs/<job_id>/download"; \
	echo "Docs: https://localhost:8443/v1/docs"; echo; \
	echo "Or with the client: DRAGOMAN_CA=$(DATA_DIR)/tls/cert.pem $(BIN)/dragoman translate testdata/e2e/english.docx --to Spanish"; echo; \
	echo "Dashboard: https://localhost:8443/ (self-signed certificate): sign in as dev@localhost"; \
	echo "  with the password $$(cat $(DATA_DIR)/dev-password) (kept in $(DATA_DIR)/dev-password)"; echo; \
	echo "What the engines translate (DRAGOMAN_ENGINES=$${DRAGOMAN_ENGINES:-apertium}; every pair: $(BIN)/dragoman pairs):"; \
	$(BIN)/dragoman pairs --summary --plugin-dir $(PLUGINS) --engines "$${DRAGOMAN_ENGINES:-apertium}" | sed 's/^/  /'; echo
	DRAGOMAN_DATA_DIR=$(DATA_DIR) DRAGOMAN_ALLOW_PRIVATE_URLS=$${DRAGOMAN_ALLOW_PRIVATE_URLS:-0} $(BIN)/dragoman serve

## test: every test (binaries are built first: the end-to-end tests run them)
test: deps build tools
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '\.pb\.go$$' || true); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	DRAGOMAN_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -timeout 40m ./...

## bench: issue 13's table in one run (BenchmarkTable in app/e2e: the whole
## service against its peers; DRAGOMAN_BENCH_* variables tune it)
bench: build
	DRAGOMAN_BIN=$(CURDIR)/$(BIN) $(GO) test -run '^$$' -bench '^BenchmarkTable$$' -benchtime 1x -timeout 90m ./app/e2e/

## bench-all: every benchmark, with allocation counts
bench-all: build
	DRAGOMAN_BIN=$(CURDIR)/$(BIN) $(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./...

## proto: regenerate the plugin protocol's Go code
proto:
	./plugins/sdk/gen.sh

## openapi: regenerate the committed contract from the code, and the Go SDK's
## generated layer from it (oapi-codegen reads OpenAPI 3.0: the contract is
## downgraded into a temporary file)
OAPI_CODEGEN := github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2
openapi: build
	$(BIN)/dragoman openapi > openapi/openapi.json
	$(BIN)/dragoman openapi --yaml > openapi/openapi.yaml
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	$(BIN)/dragoman openapi --openapi-3.0 > $$tmp/openapi-3.0.json && \
	echo "$(GO) run $(OAPI_CODEGEN) -config openapi/client/oapi-codegen.yaml <contract 3.0>" && \
	$(GO) run $(OAPI_CODEGEN) -config openapi/client/oapi-codegen.yaml $$tmp/openapi-3.0.json

fmt:
	gofmt -w $$(git ls-files '*.go' | grep -v '\.pb\.go$$')

clean:
	rm -rf $(BIN)
