package sqlstore

// RecordsQuery is recordsQuery, for the tests of package sqlstore_test.
var RecordsQuery = recordsQuery
