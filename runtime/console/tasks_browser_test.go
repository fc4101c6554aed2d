package console_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserTasksCancel: a person sees their running task with its
// progress and their waiting one, cancels the running one with its
// Cancel button, and its tool stops.
func TestBrowserTasksCancel(t *testing.T) {
	e, f := taskEnv(t)
	tb := newBrowser(t)
	run := startTask(t, e, ana, "jobs_run")
	drop := startTask(t, e, ana, "jobs_drop")
	waitPage(t, e, "tasks", anaToken, "step 1 of 3") // its progress is in the store

	tb.signIn(e, anaToken)
	tb.do(chromedp.Click(chromedp.CSS(`nav a[href$="tasks"]`)), chromedp.WaitVisible(chromedp.ID("tasks")))
	card := `[data-task="` + run.ID + `"]`
	assert.Equal(t, progressText, tb.text(card+" .progress"), "its progress, as text")
	assert.Equal(t, "RUNNING", tb.text(card+" .state"))
	assert.Equal(t, "WAITING FOR A DECISION", tb.text(`[data-task="`+drop.ID+`"] .state`))
	assert.Equal(t, []string{drop.ID, run.ID}, eval[[]string](tb, `[...document.querySelectorAll("#tasks [data-task]")].map(c => c.dataset.task)`))

	tb.do(chromedp.Click(chromedp.CSS(card+" button.cancel")), chromedp.WaitVisible(chromedp.ID("notice")))
	assert.Equal(t, "Cancelled: the task was asked to stop.", tb.text("#notice"))
	select {
	case <-f.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool's context did not end")
	}
	waitGone(t, e, anaToken, run.ID)
	tb.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("tasks")))
	assert.Equal(t, []string{drop.ID}, eval[[]string](tb, `[...document.querySelectorAll("#tasks [data-task]")].map(c => c.dataset.task)`))

	// The waiting task's Decide link leads to its proposal.
	tb.do(chromedp.Click(chromedp.CSS(`[data-task="`+drop.ID+`"] a.button`)), chromedp.WaitVisible(chromedp.CSS(`[data-proposal="`+drop.Proposal+`"]`)))
}

// TestBrowserTasksLive: the tasks page keeps a task's progress current
// (its script reads api/tasks), and marks a task that ended elsewhere.
func TestBrowserTasksLive(t *testing.T) {
	e, f := taskEnv(t)
	tb := newBrowser(t)
	run := startTask(t, e, ana, "jobs_run")
	waitPage(t, e, "tasks", anaToken, "step 1 of 3")

	tb.signIn(e, anaToken)
	tb.do(chromedp.Navigate(e.url+"tasks"), chromedp.WaitVisible(chromedp.ID("tasks")), waitScript)
	card := `[data-task="` + run.ID + `"]`
	assert.Equal(t, progressText, tb.text(card+" .progress"))

	close(f.next) // the tool reports its next step: the page shows it without a reload
	tb.do(chromedp.Poll[chromedp.Void](`document.querySelector(` + jsString(card+" .progress") + `).textContent === "step 2 of 3"`))

	// Cancelled elsewhere (the API, another tab): the card says it ended.
	require.NoError(t, e.svc.CancelTask(as(ana, ""), run.ID, ana))
	tb.do(chromedp.Poll[chromedp.Void](`document.querySelector(` + jsString(card) + `).dataset.status === "ended"`))
	assert.Equal(t, "ended", eval[string](tb, `document.querySelector(`+jsString(card+" .state")+`).textContent`))
	assert.True(t, eval[bool](tb, `document.querySelector(`+jsString(card+" button.cancel")+`).disabled`))
}
