// Package want stands for the generated package of the cycle case.
package want
