// Bundles host.js, the test host page's script, for the browser with the
// pinned esbuild: node build.mjs OUTFILE (default dist/host.js).
import { build } from "esbuild";

await build({
  entryPoints: ["host.js"],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  outfile: process.argv[2] ?? "dist/host.js",
  logLevel: "warning",
});
