package ledger

import (
	"encoding/csv"
	"io"
	"strconv"
)

// WriteCSV writes every entry as CSV: id, account, cents, RFC 3339 time.
func (l *Ledger) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	for _, e := range l.entries {
		rec := []string{strconv.FormatInt(e.ID, 10), e.Account, strconv.FormatInt(e.Cents, 10), e.At.Format("2006-01-02T15:04:05Z07:00")}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
