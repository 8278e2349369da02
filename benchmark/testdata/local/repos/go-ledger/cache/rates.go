// Package cache remembers exchange rates fetched from the rates service.
package cache

import (
	"context"
	"sync"
)

// Fetcher asks the rates service for one currency pair.
type Fetcher func(ctx context.Context, pair string) (float64, error)

// Rates caches rates by pair.
type Rates struct {
	mu    sync.Mutex
	rates map[string]float64
	fetch Fetcher
}

// New returns an empty cache over fetch.
func New(fetch Fetcher) *Rates {
	return &Rates{rates: map[string]float64{}, fetch: fetch}
}

// Get returns the cached rate for pair, fetching it once.
func (r *Rates) Get(ctx context.Context, pair string) (float64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.rates[pair]; ok {
		return v, nil
	}
	v, err := r.fetch(ctx, pair)
	if err != nil {
		return 0, err
	}
	r.rates[pair] = v
	return v, nil
}
