// Command ledgerd serves the ledger over HTTP.
package main

import (
	"encoding/json"
	"log"
	"net/http"
	"strconv"

	"example.com/ledger/ledger"
)

var book = &ledger.Ledger{}

func main() {
	http.HandleFunc("/entries/", getEntry)
	log.Fatal(http.ListenAndServe(":8080", nil))
}

func getEntry(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.URL.Path[len("/entries/"):], 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	e, err := book.Get(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(e)
}
