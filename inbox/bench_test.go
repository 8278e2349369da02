package inbox

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkInboxList lists the submitted reviews of a store of 10,000
// records: the fold of the whole file and the filter, as inbox list does
// (the command's own benchmark adds the output).
func BenchmarkInboxList(b *testing.B) {
	// The records span a week; a lease that long keeps their claims held,
	// so a fifth of the store stays claimed and a fifth submitted.
	s := testStore(b, Options{ClaimLease: 31 * 24 * time.Hour})
	data := bulkRecords(10000, time.Now().Add(-30*24*time.Hour))
	if err := os.WriteFile(s.Path(), data, 0o600); err != nil {
		b.Fatal(err)
	}
	svc := &Service{Store: s}
	b.SetBytes(int64(len(data)))
	ctx := context.Background()
	start := time.Now()
	for b.Loop() {
		res, err := svc.List(ctx, ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Items) != 2000 {
			b.Fatalf("%d submitted items, want 2000", len(res.Items))
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/list")
}
