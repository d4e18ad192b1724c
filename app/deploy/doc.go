// Package deploy holds Dragoman's deployment files: the Dockerfile, the
// Compose files of the scale-out deployment and the Kubernetes manifests
// (kubernetes/). It has no code; its test checks that the files parse
// with the tools' own libraries and use only flags and variables that
// `dragoman serve` has, and keeps those libraries out of the binary.
package deploy
