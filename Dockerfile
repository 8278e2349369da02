# Build a static binary, ship it alone with CA certificates.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w -X github.com/review-my-code-bot/rmc/app.Version=${VERSION}" -o /out/rmc ./cmd/action

FROM scratch
# GitHub mounts the workspace and makes it the working directory: no WORKDIR,
# and the runner runs container actions as root: no USER.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/rmc /rmc
ENTRYPOINT ["/rmc"]
