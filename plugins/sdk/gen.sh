#!/bin/sh
# Regenerates the Go code of the plugin protocol. Needs protoc
# (apt-get install -y protobuf-compiler) and the two Go generators:
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.11
#   go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
# The generated files are committed, so only changes to the .proto need it.
set -eu
cd "$(dirname "$0")/pluginpb"
PATH="$(go env GOPATH)/bin:$PATH"
protoc -I . \
	--go_out=. --go_opt=paths=source_relative \
	--go-grpc_out=. --go-grpc_opt=paths=source_relative \
	dragoman/plugin/v1/plugin.proto
