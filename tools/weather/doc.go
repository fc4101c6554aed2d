// Package weather is the open-world part of the sample tool domain: one
// tool, weather_forecast ([ForecastTool]), that stands for a tool calling
// an outside service with credentials.
//
// It shows two things. A tool that needs configuration reports itself
// unusable with an Available method: without an API key the forecast tool
// is neither listed nor callable. And an argument can take more than one
// shape: a [Place] is a city name or a pair of coordinates, decoded by its
// own UnmarshalJSON method and described by its own JSONSchema method.
//
// This sample never reaches the network. With an API key it returns canned
// forecasts computed from the place and the date, the same for the same
// arguments on the same day.
package weather
