package console

import (
	"errors"
	"net/http"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The tasks page: the person's tasks that have not ended (service.Tasks),
// running (with the progress its tool last reported) or waiting for the
// person's decision on its proposal, each with a Cancel button. Only the
// person who started a task sees it or cancels it.

// tasksData is the tasks page's.
type tasksData struct {
	Tasks []taskRow
	// Notice says what the person's last cancellation did (a fixed text).
	Notice string
}

// taskRow is a task as the page shows it.
type taskRow struct {
	ID   string
	Tool string
	// Status is "working" or "input_required".
	Status string
	// Message is the task's progress or state, as its tool or the
	// service wrote it.
	Message string
	// Proposal is the proposal a waiting task waits on, if any.
	Proposal     string
	Conversation string
	Created      time.Time
	Updated      time.Time
	// Cancelling says a cancellation was asked and has not yet reached
	// the tool.
	Cancelling bool
}

// taskNotices are the fixed texts a cancellation's redirect may show.
var taskNotices = map[string]string{
	"cancelled": "Cancelled: the task was asked to stop.",
	"ended":     "Nothing was cancelled: the task had already ended.",
}

// rows returns who's unfinished tasks as the page shows them.
func (c *Console) rows(r *http.Request, who tool.Principal) ([]taskRow, error) {
	ts, err := c.svc.Tasks(as(r.Context(), who), who)
	if err != nil {
		return nil, err
	}
	out := make([]taskRow, len(ts))
	for i, t := range ts {
		out[i] = taskRow{ID: t.ID, Tool: t.Tool, Status: t.Status.String(), Message: t.Message, Proposal: t.Proposal,
			Conversation: t.Conversation, Created: t.Created, Updated: t.Updated, Cancelling: t.CancelRequested}
	}
	return out, nil
}

// tasksPage serves the person's running and waiting tasks.
func (c *Console) tasksPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	rows, err := c.rows(r, who)
	if err != nil {
		c.failed(w, r, "read the tasks", err)
		return
	}
	c.render(w, r, http.StatusOK, "tasks", who, &tasksData{Tasks: rows, Notice: taskNotices[r.URL.Query().Get("done")]})
}

// cancelTask asks for the task id of who to be cancelled; done is the
// key of taskNotices saying what it did, or err the refusal.
func (c *Console) cancelTask(r *http.Request, who tool.Principal, id string) (done string, err error) {
	err = c.svc.CancelTask(as(r.Context(), who), id, who)
	switch {
	case err == nil:
		return "cancelled", nil
	case errors.Is(err, service.ErrTaskFinished):
		return "ended", nil
	}
	return "", err
}

// cancelTaskPage serves a Cancel button's post: the tasks page shows
// what happened.
func (c *Console) cancelTaskPage(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	done, err := c.cancelTask(r, who, r.PathValue("id"))
	if err != nil {
		c.taskError(w, r, err)
		return
	}
	http.Redirect(w, r, base(r)+"tasks?done="+done, http.StatusSeeOther)
}

// taskError answers a refused cancellation: an unknown task (or
// another's, or expired: the same answer) is 404 with a fixed text,
// which quotes nothing of the request; anything else is a failure of the
// store (logged, not shown).
func (c *Console) taskError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, service.ErrTaskNotFound) {
		c.refuse(w, r, http.StatusNotFound, "unknown_task", "no such task is yours: it may have ended and been forgotten")
		return
	}
	c.failed(w, r, "cancel a task", err)
}

// apiTask is a task as the person may see it.
type apiTask struct {
	ID           string    `json:"id"`
	Tool         string    `json:"tool"`
	Status       string    `json:"status"`
	Message      string    `json:"message,omitempty"`
	Proposal     string    `json:"proposal,omitempty"`
	Conversation string    `json:"conversation,omitempty"`
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
	Cancelling   bool      `json:"cancelling"`
}

// apiTasks answers GET api/tasks: the person's unfinished tasks.
func (c *Console) apiTasks(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	rows, err := c.rows(r, who)
	if err != nil {
		c.failed(w, r, "read the tasks", err)
		return
	}
	out := struct {
		Tasks []apiTask `json:"tasks"`
	}{Tasks: make([]apiTask, len(rows))}
	for i, t := range rows {
		out.Tasks[i] = apiTask(t)
	}
	writeJSON(w, http.StatusOK, &out)
}

// apiCancelTask answers POST api/tasks/{id}/cancel: {"done":"cancelled"}
// or {"done":"ended"} (it had ended: nothing was cancelled).
func (c *Console) apiCancelTask(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	done, err := c.cancelTask(r, who, r.PathValue("id"))
	if err != nil {
		c.taskError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"done": done})
}
