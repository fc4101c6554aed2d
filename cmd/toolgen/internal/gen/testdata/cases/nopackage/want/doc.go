// Package want stands for the generated package of the nopackage case.
package want
