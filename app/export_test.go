package app

import "github.com/review-my-code-bot/rmc/github"

// realGitHub is the real webhook parser and client, built as cmd/action
// builds them, for the tests that
// run the pipeline against the fake GitHub server.
var realGitHub = Connector{ParseEvent: github.ParseEvent, Connect: func(c Connection) (GitHub, error) {
	opts, err := github.RunnerOptions(c.Token, c.Getenv, c.Warn)
	if err != nil {
		return nil, err
	}
	client, err := github.New(opts)
	if err != nil {
		return nil, err
	}
	return client, nil
}}

// RealGitHub is realGitHub, for the package's external tests.
var RealGitHub = realGitHub
