// want package:`\) tools todo-list todo_list _9lives new}$`

// Package fieldnames declares tool names the generated Tools struct cannot
// tell apart, or cannot name.
package fieldnames

import "context"

// want +4 `^tool names "todo-list" and "todo_list" both become the Go field TodoList of Tools: rename one \(other declaration at fieldnames.go:\d+:1\)$`

// ListA lists todos.
//
//tool:name todo-list
type ListA struct{}

// Call runs it.
func (ListA) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^tool names "todo_list" and "todo-list" both become the Go field TodoList of Tools: rename one \(other declaration at fieldnames.go:\d+:1\)$`

// ListB lists todos too.
//
//tool:name todo_list
type ListB struct{}

// Call runs it.
func (ListB) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^//tool:name: tool name "_9lives" becomes the Go field 9lives, not an identifier: start the name with a letter$`

// Lives has a name whose camel form starts with a digit.
//
//tool:name _9lives
type Lives struct{}

// Call runs it.
func (Lives) Call(ctx context.Context) (string, error) { return "", nil }

// New is the field Tools.New: legal.
//
//tool:name new
type New struct{}

// Call runs it.
func (New) Call(ctx context.Context) (string, error) { return "", nil }
