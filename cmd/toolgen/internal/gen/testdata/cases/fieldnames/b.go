package fieldnames

import "context"

// ListB lists todos too, under a name with the same Go field.
//
//tool:name todo_list
type ListB struct{}

// Call runs it.
func (ListB) Call(ctx context.Context) (string, error) { return "", nil }

// Upper differs from ListA's name only by case.
//
//tool:name Todo_List
type Upper struct{}

// Call runs it.
func (Upper) Call(ctx context.Context) (string, error) { return "", nil }

// New is a tool whose field is Tools.New: legal, and nothing else is named
// so in Tools.
//
//tool:name new
type New struct{}

// Call runs it.
func (New) Call(ctx context.Context) (string, error) { return "", nil }
