package sqlstore

import "github.com/toolgen-go/toolgen/runtime/service"

// recordsQuery returns the query of Records and its arguments.
func recordsQuery(q *service.Query) (string, []any) {
	var f filter
	f.add(q.Principal != "", "principal = ?", text(q.Principal))
	f.add(q.Conversation != "", "conversation = ?", text(q.Conversation))
	f.add(q.CallID != "", "call_id = ?", text(q.CallID))
	f.add(q.Tool != "", "tool = ?", text(q.Tool))
	f.add(q.Proposal != "", "proposal = ?", text(q.Proposal))
	f.add(!q.Since.IsZero(), "time_ns >= ?", nanos(q.Since))
	f.add(!q.Until.IsZero(), "time_ns < ?", nanos(q.Until))
	order := pageFilter(&f, q)
	return f.query("SELECT "+recordColumns+" FROM toolgen_records", order, q.Limit)
}

// pageFilter adds the conditions of q's event and keyset cursor to f and
// returns the order q asks for. The cursor is a row value, (time_ns, id)
// < (?, ?), which both dialects read as a range of the indexes on
// (time_ns, id) and on (column, time_ns, id) that migration 4 made: a
// newest-first page reads its rows off one index, backwards, whatever
// the size of the table.
func pageFilter(f *filter, q *service.Query) (order string) {
	f.add(q.Event != 0, "event = ?", enumName(q.Event))
	if !q.Before.Time.IsZero() {
		f.where = append(f.where, "(time_ns, id) < (?, ?)")
		f.args = append(f.args, nanos(q.Before.Time), q.Before.ID)
	}
	if q.Newest {
		return "time_ns DESC, id DESC"
	}
	return "id"
}

// pageIndexes is migration 4's statements: an index on (time_ns, id),
// which replaces the one on time_ns alone (Purge's range reads it as
// well), and one on (column, time_ns, id) for each column a record page
// filters by, so that a page of one principal's, conversation's, tool's
// or event's records, in a span of time or not, is a range of one index
// read newest first.
func pageIndexes() []string {
	return []string{
		`DROP INDEX toolgen_records_time`,
		`CREATE INDEX toolgen_records_time_id ON toolgen_records (time_ns, id)`,
		`CREATE INDEX toolgen_records_principal_time ON toolgen_records (principal, time_ns, id)`,
		`CREATE INDEX toolgen_records_conversation_time ON toolgen_records (conversation, time_ns, id)`,
		`CREATE INDEX toolgen_records_tool_time ON toolgen_records (tool, time_ns, id)`,
		`CREATE INDEX toolgen_records_event_time ON toolgen_records (event, time_ns, id)`,
	}
}
