// Package deploy holds the container and Kubernetes deployment of Tripplan (the Dockerfile is
// at the repository's root, the manifests in k8s/) and, in its test, the checks that keep them
// valid and wired to the server. It is a module of its own so that the Kubernetes API types
// stay out of the server's dependencies.
package deploy
