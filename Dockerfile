# syntax=docker/dockerfile:1
# The Tripplan server as one static binary on distroless: static files, migrations, catalogues,
# time zones and the OpenAPI document are embedded, so the image holds the binary alone, beside
# distroless's CA certificates (for the sign-in providers, S3, places and rates over https).
# deploy/ checks this file (cd deploy && go test ./...): keep the Go version equal to go.mod's.

FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tripplan ./cmd/tripplan

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tripplan /usr/local/bin/tripplan
# Production unless told otherwise: no dev sign-in, no demo data, no built-in public secrets.
ENV APP_ENV=production
# Without STORAGE_URL, pictures go to .data/uploads under the working directory; nonroot owns
# its home. Several instances need STORAGE_URL (one bucket for all).
WORKDIR /home/nonroot
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/tripplan"]
