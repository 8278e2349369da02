package app

import "github.com/review-my-code-bot/rmc/github"

// realGitHub is the real webhook parser and client, built as cmd/action
// builds them (without its RMC_WRITE_INTERVAL override), for the tests that
// run the pipeline against the fake GitHub server.
var realGitHub = Connector{ParseEvent: github.ParseEvent, Connect: func(c Connection) (GitHub, error) {
	client, err := github.New(github.Options{Token: c.Token, APIURL: c.Getenv("GITHUB_API_URL"), GraphQLURL: c.Getenv("GITHUB_GRAPHQL_URL"), Warn: c.Warn})
	if err != nil {
		return nil, err
	}
	return client, nil
}}

// RealGitHub is realGitHub, for the package's external tests.
var RealGitHub = realGitHub
